import "server-only";
import type { LiveDay } from "@/lib/shared/api/sales";
import { dayHours } from "@/lib/shared/format/time";

/** Every bucket of the day's window (zeros included), plus any bucket outside it (late-assigned records). */
export function fillHours<T extends { hour: string }>(
  day: LiveDay,
  timeZone: string,
  rows: T[],
  zero: Omit<T, "hour">,
): T[] {
  const byHour = new Map(rows.map((r) => [r.hour, r]));
  const hours = new Set([...dayHours(day, timeZone), ...byHour.keys()]);
  return [...hours].sort().map((hour) => byHour.get(hour) ?? ({ ...zero, hour } as T));
}

export const sumTotals = (
  rows: { count: number; total: number; total_base: number; total_tax: number }[],
) => ({
  count: rows.reduce((n, r) => n + r.count, 0),
  total: rows.reduce((n, r) => n + r.total, 0),
  total_base: rows.reduce((n, r) => n + r.total_base, 0),
  total_tax: rows.reduce((n, r) => n + r.total_tax, 0),
});

/** Count and amount of the rows a predicate keeps. */
export function countAmount<T extends { count: number; amount: number }>(
  rows: T[],
  keep: (row: T) => boolean,
) {
  const kept = rows.filter(keep);
  return { count: kept.reduce((n, r) => n + r.count, 0), amount: kept.reduce((n, r) => n + r.amount, 0) };
}
