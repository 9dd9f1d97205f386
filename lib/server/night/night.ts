import "server-only";
import type { Queryable } from "@/lib/db/db";
import type {
  LateArrivals,
  NightChecksum,
  NightFigures,
  NightReport,
  Signoff,
  Tolerance,
} from "@/lib/shared/api/night";
import type { LiveContext, LiveDay } from "@/lib/shared/api/sales";
import { driftOf, expectedByDesk } from "@/lib/shared/night-arithmetic";
import { signoffStatus } from "@/lib/shared/night-close";
import { nightFiguresOf } from "@/lib/shared/summary-figures";
import type { DashboardConfig } from "../config";
import { daySummaries } from "../store/backfill";
import { eventDays } from "../store/event-settings";
import * as aggregates from "../store/live-aggregates";
import { mirrorDayTotals } from "../store/mirror";
import { draftOf, floatsOf } from "../store/night-close";
import * as night from "../store/night-records";
import { dayCheck, insertResyncRequest, pendingResyncSince } from "../store/sync-state";
import { eventContext, pickDay } from "../sync/freshness";
import { daySource } from "../sync/progress";
import { adjustmentsOf, nightCompleteness } from "./completeness";

/**
 * Night reconciliation. A night is an event day; its records are those the day rule assigned to it
 * by `occurred_at` (`day_id`, as GET /reports/sales-summary groups them). Totals and breakdowns
 * come from the live aggregates (migration 003); per-desk expected money and late arrivals read
 * the mirror by the (day_id, …) indexes; expected cash includes each desk's opening float.
 */

/** The tolerance variances are judged by, from the configuration. */
export function nightTolerance(
  config: Pick<DashboardConfig, "NIGHT_TOLERANCE_LINE" | "NIGHT_TOLERANCE_NIGHT">,
) {
  return { line: config.NIGHT_TOLERANCE_LINE, night: config.NIGHT_TOLERANCE_NIGHT };
}

/** A stored sign-off as answered: its status derived, its signer's id left out. */
export function toSignoff(row: night.SignoffRow): Signoff {
  const { superseded, user_id: _, ...rest } = row;
  return { ...rest, status: signoffStatus({ ...row, superseded }) };
}

const byText =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

function sumByMethod(rows: aggregates.FlowRow[]) {
  const m = new Map<string, { payment_method: string; count: number; amount: number }>();
  for (const r of rows) {
    const x = m.get(r.payment_method) ?? { payment_method: r.payment_method, count: 0, amount: 0 };
    x.count += r.count;
    x.amount += r.amount;
    m.set(r.payment_method, x);
  }
  return [...m.values()].sort(byText((x) => x.payment_method));
}

const total = (rows: { count: number; amount: number }[]) => ({
  count: rows.reduce((n, r) => n + r.count, 0),
  amount: rows.reduce((n, r) => n + r.amount, 0),
});

export async function nightFigures(db: Queryable, dayId: string): Promise<NightFigures> {
  const [hours, byMethod, byDevice, byTax, flows, deskFlows, deskSales, floats] = await Promise.all([
    aggregates.salesHours(db, dayId),
    aggregates.salesByPaymentMethod(db, dayId),
    aggregates.salesByDevice(db, dayId),
    aggregates.salesByTax(db, dayId),
    aggregates.flowHours(db, dayId),
    night.deskFlows(db, dayId),
    night.deskSales(db, dayId),
    floatsOf(db, dayId),
  ]);
  const topupRows = flows.filter((r) => r.direction === "topup");
  const withdrawRows = flows.filter((r) => r.direction === "withdraw");
  return {
    day_id: dayId,
    sales: {
      count: hours.reduce((n, h) => n + h.count, 0),
      total: hours.reduce((n, h) => n + h.total, 0),
      total_base: hours.reduce((n, h) => n + h.total_base, 0),
      total_tax: hours.reduce((n, h) => n + h.total_tax, 0),
    },
    sales_by_payment_method: byMethod.sort(byText((x) => x.payment_method)),
    sales_by_device: byDevice.sort(byText((x) => x.device_id)),
    sales_by_tax: byTax,
    topups: total(topupRows),
    topups_by_payment_method: sumByMethod(topupRows),
    withdrawals: total(withdrawRows),
    withdrawals_by_payment_method: sumByMethod(withdrawRows),
    bonuses: total(topupRows.filter((r) => r.nature === "bonus")),
    transfers: total(flows.filter((r) => r.nature === "transfer")),
    expected: expectedByDesk({
      topups: deskFlows.filter((r) => r.direction === "topup"),
      withdrawals: deskFlows.filter((r) => r.direction === "withdraw"),
      sales: deskSales,
      floats,
    }),
  };
}

type Totals = { sales: NightFigures["sales"]; topups: { amount: number }; withdrawals: { amount: number } };

export async function nightChecksum(
  db: Queryable,
  dayId: string,
  figures: NightFigures,
): Promise<NightChecksum> {
  const [check, resync_pending_since] = await Promise.all([
    dayCheck(db, dayId),
    pendingResyncSince(db, dayId),
  ]);
  if (!check)
    return {
      upstream: null,
      checked_at: null,
      matched: null,
      difference: null,
      rewalks: 0,
      last_rewalk_at: null,
      resync_pending_since,
    };
  const upstream = check.upstream;
  const diff = (mine: Totals) => ({
    sales_count: upstream.sales.count - mine.sales.count,
    sales_total: upstream.sales.total - mine.sales.total,
    topups_amount: upstream.topups.amount - mine.topups.amount,
    withdrawals_amount: upstream.withdrawals.amount - mine.withdrawals.amount,
  });
  const zero = (d: ReturnType<typeof diff>) => Object.values(d).every((x) => x === 0);
  // Records keep arriving after the summary was generated: the night matches if all its records,
  // or those that had reached the upstream when the summary was generated, add up to it.
  const all = diff(figures);
  const upTo = zero(all) ? all : diff(await mirrorDayTotals(db, dayId, new Date(upstream.generated_at)));
  return {
    upstream,
    checked_at: check.checkedAt,
    matched: zero(all) || zero(upTo),
    difference: upTo,
    rewalks: check.rewalks,
    last_rewalk_at: check.lastRewalkAt,
    resync_pending_since,
  };
}

/** Records of the night that reached the upstream at or after the night's end. */
export async function lateArrivals(db: Queryable, day: LiveDay): Promise<LateArrivals> {
  const by_device = await night.lateByDevice(db, day.id, day.ends_at);
  const latest = by_device
    .map((d) => d.latest_created_at)
    .filter((x): x is string => x !== null)
    .sort()
    .at(-1);
  return { ...total(by_device), latest_created_at: latest ?? null, by_device };
}

/** The night asked for; by default the latest night that has ended, else the current one. */
function nightOf(ctx: { days: LiveDay[] }, dayId: string | null, now: Date): LiveDay | null {
  if (dayId) return pickDay(ctx, dayId, now);
  return (
    [...ctx.days].reverse().find((d) => Date.parse(d.ends_at) <= now.getTime()) ?? pickDay(ctx, null, now)
  );
}

/**
 * Where the night's totals come from: the summary while its records are still being mirrored or
 * differ (`daySource`), and also while its checksum has not been checked yet (a fresh start: the
 * mirror may lack what the check would find).
 */
async function nightSource(db: Queryable, ctx: Pick<LiveContext, "mirror">, dayId: string, checked: boolean) {
  const source = await daySource(db, ctx, dayId);
  if (source.summary || checked) return source;
  const kept = (await daySummaries(db)).get(dayId)?.summary;
  return kept
    ? { figures: { source: "summary" as const, summary_at: kept.generated_at }, summary: kept }
    : source;
}

export async function nightReport(
  db: Queryable,
  options: { dayId: string | null; tolerance: Tolerance; now: Date },
): Promise<NightReport> {
  const { now } = options;
  const ctx = await eventContext(db, now);
  const day = nightOf(ctx, options.dayId, now);
  if (!day)
    return {
      ...ctx,
      day: null,
      figures_source: { source: "mirror", summary_at: null },
      ended: false,
      figures: null,
      checksum: null,
      late: null,
      signoffs: [],
      drift: null,
      completeness: null,
      tolerance: options.tolerance,
      floats: [],
      draft: [],
      adjustments: null,
    };
  const figures = await nightFigures(db, day.id);
  const signoffs = (await night.signoffsOf(db, day.id)).map(toSignoff);
  const last = signoffs[0];
  const checksum = await nightChecksum(db, day.id, figures);
  // Shown: the summary's totals while the night's records are incomplete, differ or are unchecked.
  // The checksum and the drift keep comparing the mirror's own figures (that difference is what
  // they report).
  const source = await nightSource(db, ctx, day.id, checksum.matched !== null);
  const [floats, draft] = await Promise.all([floatsOf(db, day.id), draftOf(db, day.id)]);
  return {
    ...ctx,
    day,
    figures_source: source.figures,
    ended: Date.parse(day.ends_at) <= now.getTime(),
    figures: source.summary ? nightFiguresOf(figures, source.summary) : figures,
    checksum,
    late: await lateArrivals(db, day),
    signoffs,
    drift: last ? driftOf(last.id, last.snapshot.figures, figures) : null,
    completeness: await nightCompleteness(db, day),
    tolerance: options.tolerance,
    floats,
    draft,
    adjustments: await adjustmentsOf(db, last),
  };
}

/** Asks the sync worker to re-walk this day's sales and top-ups on its next cycle. */
export async function requestResync(db: Queryable, dayId: string, username: string, now: Date) {
  pickDay({ days: await eventDays(db) }, dayId, now);
  const pending = await pendingResyncSince(db, dayId);
  if (pending) return { day_id: dayId, requested_at: pending };
  return { day_id: dayId, requested_at: await insertResyncRequest(db, dayId, username, now) };
}
