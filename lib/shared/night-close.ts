/**
 * Closing a night, pure (server and browser): the totals of a count, the tolerance a variance is
 * judged by, and the state of a sign-off (final, or awaiting a manager's approval). Integer minor
 * units.
 */

/** The most a variance may be, in minor units: per desk and method, and over the whole night. */
export interface Tolerance {
  line: number;
  night: number;
}

/** A line of a count: what it expects, and what was counted (null: not counted yet). */
export interface CountLine {
  expected: number;
  counted: number | null;
}

export interface CountTotals {
  /** Lines counted, and lines in all. */
  counted_lines: number;
  lines: number;
  /** Expected over every line. */
  expected: number;
  /** Expected over the counted lines only (what the counted total is compared with). */
  expected_counted: number;
  counted: number;
  /** Counted − expected over the counted lines. */
  variance: number;
}

export function countTotals(lines: CountLine[]): CountTotals {
  const counted = lines.filter((l): l is { expected: number; counted: number } => l.counted !== null);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const countedTotal = sum(counted.map((l) => l.counted));
  const expectedCounted = sum(counted.map((l) => l.expected));
  return {
    counted_lines: counted.length,
    lines: lines.length,
    expected: sum(lines.map((l) => l.expected)),
    expected_counted: expectedCounted,
    counted: countedTotal,
    variance: countedTotal - expectedCounted,
  };
}

/** A variance beyond the line's tolerance (strictly: exactly the tolerance is within). */
export const beyondLine = (variance: number, tolerance: Tolerance) => Math.abs(variance) > tolerance.line;

/** The night's variance beyond the night's tolerance. */
export const beyondNight = (variance: number, tolerance: Tolerance) => Math.abs(variance) > tolerance.night;

/**
 * Whether a count needs a manager's approval before the sign-off is final: a line's variance beyond
 * the line tolerance, or the night's total variance beyond the night tolerance.
 */
export function needsApproval(variances: number[], tolerance: Tolerance): boolean {
  const night = variances.reduce((a, b) => a + b, 0);
  return variances.some((v) => beyondLine(v, tolerance)) || beyondNight(night, tolerance);
}

export type SignoffStatus = "final" | "awaiting_approval" | "superseded";

/**
 * A sign-off's state: final (within tolerance, or approved), awaiting approval, or superseded by a
 * later sign-off of the night before it was approved.
 */
export function signoffStatus(s: {
  needs_approval: boolean;
  approval: unknown | null;
  superseded: boolean;
}): SignoffStatus {
  if (!s.needs_approval || s.approval !== null) return "final";
  return s.superseded ? "superseded" : "awaiting_approval";
}

/** Why an approval is refused, or null: approvers approve someone else's current sign-off that awaits one. */
export function approvalRefusal(
  s: { username: string; status: SignoffStatus },
  approver: string,
): "approval_not_needed" | "signoff_superseded" | "approver_is_signer" | null {
  if (s.status === "final") return "approval_not_needed";
  if (s.status === "superseded") return "signoff_superseded";
  if (s.username === approver) return "approver_is_signer";
  return null;
}
