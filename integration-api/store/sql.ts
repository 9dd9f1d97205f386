/** Collects positional parameters while a statement is assembled, so values never enter SQL text. */
export class Params {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder ($1, $2, ...). */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * What a key may see ("records outside scope behave as if they did not exist").
 * null means unrestricted on that axis.
 */
export interface Visibility {
  ticketTypeIds: string[] | null;
  dayIds: string[] | null;
}

export const UNRESTRICTED: Visibility = { ticketTypeIds: null, dayIds: null };

/** SQL condition: the ticket aliased `t` is in scope. */
export function ticketVisible(p: Params, v: Visibility, t = "t"): string {
  const parts: string[] = [];
  if (v.ticketTypeIds) parts.push(`${t}.ticket_type_id = any(${p.add(v.ticketTypeIds)}::text[])`);
  if (v.dayIds) parts.push(`${t}.valid_day_ids && ${p.add(v.dayIds)}::text[]`);
  return parts.length ? `(${parts.join(" and ")})` : "true";
}

/**
 * SQL condition: the wristband aliased `w` is in scope — its ticket is; an anonymous wristband is
 * out of scope for a key restricted by ticket type, and otherwise follows its own valid days.
 */
export function wristbandVisible(p: Params, v: Visibility, w = "w"): string {
  if (!v.ticketTypeIds && !v.dayIds) return "true";
  const viaTicket = `exists (select 1 from tickets vt where vt.id = ${w}.ticket_id and ${ticketVisible(p, v, "vt")})`;
  if (v.ticketTypeIds) return `(${w}.ticket_id is not null and ${viaTicket})`;
  const anonymous = `(${w}.ticket_id is null and ${w}.valid_day_ids && ${p.add(v.dayIds)}::text[])`;
  return `((${w}.ticket_id is not null and ${viaTicket}) or ${anonymous})`;
}

/** SQL condition: a sale, top-up or scan aliased `r` (with day_id, wristband_id) is in scope. */
export function recordVisible(p: Params, v: Visibility, r = "r"): string {
  const parts: string[] = [];
  if (v.dayIds) parts.push(`${r}.day_id = any(${p.add(v.dayIds)}::text[])`);
  if (v.ticketTypeIds) {
    parts.push(
      `exists (select 1 from wristbands vw where vw.id = ${r}.wristband_id and ${wristbandVisible(p, v, "vw")})`,
    );
  }
  return parts.length ? `(${parts.join(" and ")})` : "true";
}

/**
 * A code as a lookup compares it (api-v1-decisions: codes in paths and bodies are matched
 * case-insensitively after trimming surrounding whitespace, and stored as issued): `null` when
 * no stored code can match it (empty, or holding a NUL the store cannot compare).
 */
export function lookupCode(code: string): string | null {
  const trimmed = code.trim();
  return trimmed && storableText(trimmed) ? trimmed : null;
}

/**
 * SQL condition: `column` holds the code in `placeholder`, whatever the case of either. Written
 * as `lower(column) = lower(…)` so the `lower(…)` indexes of migration 003 serve it.
 */
export function sameCodeSql(column: string, placeholder: string): string {
  return `lower(${column}) = lower(${placeholder})`;
}

/**
 * PostgreSQL text cannot hold NUL, and a parameter containing one is an error: a code with NUL
 * matches no stored record, so lookups answer "not found" without asking the database.
 */
export function storableText(value: string): boolean {
  return !value.includes("\u0000");
}

const MIN_INSTANT = new Date("0001-01-01T00:00:00.000Z").getTime();
const MAX_INSTANT = new Date("9999-12-31T23:59:59.999Z").getTime();

/**
 * A lower-bound instant (`since`, `updated_since`) PostgreSQL accepts. The query parameters allow
 * four-digit years with any offset, which reaches year 0 and 10000, outside PostgreSQL's input
 * range; clamping to years 1..9999 selects the same records.
 */
export function sqlInstant(at: Date): Date {
  return new Date(Math.min(MAX_INSTANT, Math.max(MIN_INSTANT, at.getTime())));
}

/** A page of rows fetched with `limit + 1`: the extra row only tells whether more exist. */
export function toPage<T extends { id: string }>(rows: T[], limit: number) {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  return { data, hasMore, nextCursor: hasMore ? data[data.length - 1].id : null };
}
