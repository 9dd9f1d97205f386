import "server-only";
import type { LiveDay, SalesForecast } from "@/lib/shared/api/sales";

/**
 * Tonight's forecast: the day's sales at close, from the share of their day that the earlier
 * nights had reached by the same point of their window (hours since opening, event-local hours:
 * a day-saving night has one hour more or less, its hours still follow each other). Pure: the
 * report hands it each day's sales per hour of its window.
 */

const HOUR = 3_600_000;
/**
 * Below this share of their night reached by this point on the earlier nights, no projection: the
 * first minutes of a night are a small, noisy sample (ten minutes of a flat opening once projected
 * ten times the night before).
 */
export const MIN_SHARE = 0.05;

export interface DaySeries {
  day: Pick<LiveDay, "id" | "name" | "starts_at" | "ends_at">;
  /** Sales total of each hour of the window, from its opening. */
  hours: number[];
}

/** Per-hour totals of a day's window from hour buckets (instants); buckets outside are left out. */
export function seriesOf(day: DaySeries["day"], rows: { hour: string; total: number }[]): DaySeries {
  const start = Date.parse(day.starts_at);
  const length = Math.max(1, Math.round((Date.parse(day.ends_at) - start) / HOUR));
  const hours = new Array<number>(length).fill(0);
  for (const r of rows) {
    const i = Math.floor((Date.parse(r.hour) - start) / HOUR);
    if (i >= 0 && i < length) hours[i] = (hours[i] ?? 0) + r.total;
  }
  return { day, hours };
}

const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);
const mean = (xs: number[]) => sum(xs) / xs.length;

/** A day's sales from its opening until `position` hours into its window (a partial hour pro rata). */
export function cumulativeAt(hours: number[], position: number): number {
  const whole = Math.max(0, Math.min(hours.length, Math.floor(position)));
  const part = position - Math.floor(position);
  return sum(hours.slice(0, whole)) + (whole < hours.length ? part * (hours[whole] ?? 0) : 0);
}

/**
 * The projection for a day `position` hours into its window with `soFar` sold, from `history`
 * (earlier ended days, oldest first). Null figures and a reason when there is nothing to go on.
 */
export function project(
  soFar: number,
  position: number,
  history: DaySeries[],
): Pick<SalesForecast, "projected_total" | "low" | "high" | "reason" | "basis_days"> & { shares: number[] } {
  const usable = history.filter((d) => sum(d.hours) > 0);
  const none = (reason: SalesForecast["reason"]) => ({
    projected_total: null,
    low: null,
    high: null,
    reason,
    basis_days: usable.length,
    shares: [],
  });
  if (usable.length === 0) return none("no_history");
  if (position <= 0 || soFar <= 0) return none("too_early");
  const shares = usable.map((d) => cumulativeAt(d.hours, position) / sum(d.hours)).filter((s) => s > 0);
  if (shares.length === 0) return none("too_early");
  if (mean(shares) < MIN_SHARE) return none("early_in_night");
  const at = (share: number) => Math.max(soFar, Math.round(soFar / share));
  return {
    projected_total: at(mean(shares)),
    low: at(Math.max(...shares)),
    high: at(Math.min(...shares)),
    reason: null,
    basis_days: shares.length,
    shares,
  };
}

/** The projected total spread over the hours still to come, as the earlier days spread theirs. */
export function projectedHours(projected: number, position: number, history: DaySeries[], length: number) {
  const usable = history.filter((d) => sum(d.hours) > 0);
  const current = Math.floor(position);
  return Array.from({ length }, (_, i) => {
    if (i < current || usable.length === 0) return null;
    return Math.round(projected * mean(usable.map((d) => (d.hours[i] ?? 0) / sum(d.hours))));
  });
}

/**
 * The whole forecast of `today` at `now`: the projection, the hourly dashed line, the change
 * against yesterday at this point, and how far the same method was from the previous day's outcome.
 */
export function forecastOf(
  today: DaySeries,
  history: DaySeries[],
  now: Date,
  isFirstDay: boolean,
): { forecast: SalesForecast; hourly: (number | null)[] } {
  const position = (now.getTime() - Date.parse(today.day.starts_at)) / HOUR;
  const soFar = sum(today.hours);
  const empty = new Array<null>(today.hours.length).fill(null);
  const base: SalesForecast = {
    reason: null,
    projected_total: null,
    low: null,
    high: null,
    basis_days: 0,
    so_far: soFar,
    vs_yesterday_pct: null,
    backtest: null,
  };
  if (isFirstDay) return { forecast: { ...base, reason: "first_day" }, hourly: empty };
  const p = project(soFar, position, history);
  const yesterday = history.at(-1);
  const then = yesterday ? cumulativeAt(yesterday.hours, position) : 0;
  const forecast: SalesForecast = {
    ...base,
    ...p,
    vs_yesterday_pct: then > 0 ? Math.round(((soFar - then) / then) * 1000) / 10 : null,
    backtest: yesterday ? backtest(yesterday, history.slice(0, -1), position) : null,
  };
  delete (forecast as { shares?: number[] }).shares;
  const hourly =
    p.projected_total === null
      ? empty
      : projectedHours(p.projected_total, position, history, today.hours.length);
  return { forecast, hourly };
}

/** What the method would have said of `day` at the same point, against how it closed. */
function backtest(day: DaySeries, earlier: DaySeries[], position: number): SalesForecast["backtest"] {
  const actual = sum(day.hours);
  const p = project(cumulativeAt(day.hours, position), position, earlier);
  if (p.projected_total === null || actual === 0) return null;
  return {
    day_id: day.day.id,
    name: day.day.name,
    predicted: p.projected_total,
    actual,
    error_pct: Math.round(((p.projected_total - actual) / actual) * 1000) / 10,
  };
}
