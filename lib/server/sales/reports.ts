import "server-only";
import type { Queryable } from "@/lib/db/db";
import type {
  FlowTotals,
  LiveContext,
  LiveDay,
  OverviewReport,
  SalesDayReport,
  ScansDayReport,
  TopupsDayReport,
} from "@/lib/shared/api/sales";
import { flowTotalsOf, salesBreakdownsOf, salesTotalsOf, topupMethodsOf } from "@/lib/shared/summary-figures";
import * as aggregates from "../store/live-aggregates";
import * as records from "../store/live-records";
import { eventContext, pickDay } from "../sync/freshness";
import { daySource, summariesBySource } from "../sync/progress";
import { decodeCursor, toPage } from "./cursor";
import { type DaySeries, forecastOf, seriesOf } from "./forecast";
import { countAmount, fillHours, sumTotals } from "./hours";
import { topupInsights } from "./topup-insights";

/**
 * The live screens' reports. Totals, hours and breakdowns come from the aggregate tables the
 * mirror's triggers keep exact (migration 003); only the "latest" lists touch the mirror, through
 * an index, one page at a time.
 */

export const PAGE_SIZE = 25;

const tzOf = (ctx: LiveContext) => ctx.event?.time_zone ?? "UTC";
const zeroSales = { count: 0, total: 0, total_base: 0, total_tax: 0 };
const mirrorFigures = { source: "mirror", summary_at: null } as const;

function flowTotals(rows: aggregates.FlowRow[]): FlowTotals {
  return {
    topups: countAmount(rows, (r) => r.direction === "topup"),
    paid: countAmount(rows, (r) => r.direction === "topup" && r.nature === "paid"),
    promo: countAmount(
      rows,
      (r) => r.direction === "topup" && (r.nature === "bonus" || r.nature === "courtesy"),
    ),
    withdrawals: countAmount(rows, (r) => r.direction === "withdraw"),
    bonus: countAmount(rows, (r) => r.direction === "topup" && r.nature === "bonus"),
  };
}

async function overviewByDay(db: Queryable, ctx: LiveContext): Promise<OverviewReport["by_day"]> {
  const [perDay, flowsPerDay, summaries] = await Promise.all([
    aggregates.salesPerDay(db),
    aggregates.flowsPerDay(db),
    summariesBySource(db, ctx),
  ]);
  const flow = (dayId: string, direction: string) =>
    flowsPerDay.find((r) => r.day_id === dayId && r.direction === direction)?.amount ?? 0;
  return ctx.days.map((d) => {
    const summary = summaries.get(d.id);
    if (summary)
      return {
        day_id: d.id,
        name: d.name,
        date: d.date,
        count: summary.sales.count,
        total: summary.sales.total,
        topups: summary.topups.amount,
        withdrawals: summary.withdrawals.amount,
      };
    const s = perDay.find((r) => r.day_id === d.id);
    return {
      day_id: d.id,
      name: d.name,
      date: d.date,
      count: s?.count ?? 0,
      total: s?.total ?? 0,
      topups: flow(d.id, "topup"),
      withdrawals: flow(d.id, "withdraw"),
    };
  });
}

/**
 * Tonight's forecast from the earlier nights whose records are all mirrored. Today's hours come
 * from the mirror; while today is still mirrored, its total so far is the summary's (`soFar`),
 * spread as the mirrored hours are.
 */
async function dayForecast(
  db: Queryable,
  ctx: LiveContext,
  day: LiveDay,
  index: number,
  hours: aggregates.SalesHourRow[],
  soFar: number,
  now: Date,
) {
  const walked = (id: string) => ctx.mirror.days.find((d) => d.day_id === id)?.walked ?? true;
  const earlier = ctx.days.slice(0, Math.max(0, index)).filter((d) => Date.parse(d.ends_at) <= now.getTime());
  const history: DaySeries[] = [];
  for (const d of earlier.filter((x) => walked(x.id)))
    history.push(seriesOf(d, await aggregates.salesHours(db, d.id)));
  const today = seriesOf(day, hours);
  const mirrored = today.hours.reduce((n, x) => n + x, 0);
  if (mirrored === 0 && soFar > 0) today.hours[0] = soFar;
  else if (mirrored > 0 && soFar !== mirrored) today.hours = today.hours.map((x) => (x * soFar) / mirrored);
  return forecastOf(today, history, now, index === 0);
}

export async function overviewReport(db: Queryable, now: Date): Promise<OverviewReport> {
  const ctx = await eventContext(db, now);
  const tz = tzOf(ctx);
  const day = pickDay(ctx, null, now);
  const index = day ? ctx.days.findIndex((d) => d.id === day.id) : -1;
  const previous = index > 0 ? (ctx.days[index - 1] ?? null) : null;
  const by_day = await overviewByDay(db, ctx);
  if (!day) {
    const empty = { count: 0, amount: 0 };
    return {
      ...ctx,
      day: null,
      figures: mirrorFigures,
      previous_day: null,
      totals: { ...zeroSales, average_basket: 0 },
      flows: { topups: empty, paid: empty, promo: empty, withdrawals: empty, bonus: empty },
      hours: [],
      forecast: null,
      by_day,
      late: { count: 0, total: 0, devices: [] },
    };
  }
  const hours = await aggregates.salesHours(db, day.id);
  const { figures, summary } = await daySource(db, ctx, day.id);
  const totals = summary ? salesTotalsOf(summary) : sumTotals(hours);
  const filled = fillHours(day, tz, hours, zeroSales);
  // The previous day's line needs its records: none while they are still being mirrored.
  const previousWalked =
    previous !== null && (ctx.mirror.days.find((d) => d.day_id === previous.id)?.walked ?? true);
  const previousFilled = previousWalked
    ? fillHours(previous, tz, await aggregates.salesHours(db, previous.id), zeroSales)
    : [];
  const late = await aggregates.lateSalesByDevice(db, day.id);
  const { forecast, hourly } = await dayForecast(db, ctx, day, index, hours, totals.total, now);
  const hourlyAt = (hour: string) => {
    const i = Math.floor((Date.parse(hour) - Date.parse(day.starts_at)) / 3_600_000);
    return hourly[i] ?? null;
  };
  return {
    ...ctx,
    day,
    figures,
    previous_day: previous,
    totals: { ...totals, average_basket: totals.count ? Math.round(totals.total / totals.count) : 0 },
    flows: summary ? flowTotalsOf(summary) : flowTotals(await aggregates.flowHours(db, day.id)),
    hours: filled.map((h, i) => ({
      hour: h.hour,
      total: h.total,
      count: h.count,
      previous_total: previousWalked ? (previousFilled[i]?.total ?? null) : null,
      forecast_total: hourlyAt(h.hour),
    })),
    forecast,
    by_day,
    late: {
      count: late.reduce((n, r) => n + r.count, 0),
      total: late.reduce((n, r) => n + r.total, 0),
      devices: late,
    },
  };
}

export async function salesDayReport(
  db: Queryable,
  options: { dayId: string | null; cursor?: string | null; now: Date },
): Promise<SalesDayReport> {
  const ctx = await eventContext(db, options.now);
  const day = pickDay(ctx, options.dayId, options.now);
  const after = decodeCursor(options.cursor);
  if (!day)
    return {
      ...ctx,
      day: null,
      figures: mirrorFigures,
      totals: zeroSales,
      hours: [],
      by_product: [],
      by_device: [],
      by_payment_method: [],
      by_tax: [],
      latest: { data: [], next_cursor: null },
    };
  const [hours, by_product, by_device, by_payment_method, by_tax, latest] = await Promise.all([
    aggregates.salesHours(db, day.id),
    aggregates.salesByProduct(db, day.id),
    aggregates.salesByDevice(db, day.id),
    aggregates.salesByPaymentMethod(db, day.id),
    aggregates.salesByTax(db, day.id),
    records.salesPage(db, day.id, PAGE_SIZE + 1, after),
  ]);
  const { figures, summary } = await daySource(db, ctx, day.id);
  return {
    ...ctx,
    day,
    figures,
    totals: summary ? salesTotalsOf(summary) : sumTotals(hours),
    hours: fillHours(day, tzOf(ctx), hours, zeroSales),
    ...(summary ? salesBreakdownsOf(summary) : { by_product, by_payment_method, by_tax }),
    by_device,
    latest: toPage(latest, PAGE_SIZE),
  };
}

type Flows = { topups: number; withdrawals: number };

/** Sums flow rows into groups (by hour, method or nature), topped up against withdrawn. */
function groupFlows<G extends Flows>(
  rows: aggregates.FlowRow[],
  key: (r: aggregates.FlowRow) => string,
  make: (k: string) => G,
  withCount = false,
): G[] {
  const groups = new Map<string, G>();
  for (const r of rows) {
    const g = groups.get(key(r)) ?? make(key(r));
    g[r.direction === "topup" ? "topups" : "withdrawals"] += r.amount;
    if (withCount) (g as G & { count: number }).count += r.count;
    groups.set(key(r), g);
  }
  return [...groups.values()];
}

export async function topupsDayReport(
  db: Queryable,
  options: {
    dayId: string | null;
    direction?: "topup" | "withdraw" | null;
    cursor?: string | null;
    now: Date;
  },
): Promise<TopupsDayReport> {
  const ctx = await eventContext(db, options.now);
  const day = pickDay(ctx, options.dayId, options.now);
  const after = decodeCursor(options.cursor);
  const [perDay, summaries] = await Promise.all([aggregates.flowsPerDay(db), summariesBySource(db, ctx)]);
  const flow = (dayId: string, direction: string) =>
    perDay.find((r) => r.day_id === dayId && r.direction === direction)?.amount ?? 0;
  const by_day = ctx.days.map((d) => {
    const summary = summaries.get(d.id);
    return {
      day_id: d.id,
      name: d.name,
      topups: summary ? summary.topups.amount : flow(d.id, "topup"),
      withdrawals: summary ? summary.withdrawals.amount : flow(d.id, "withdraw"),
    };
  });
  const none = { count: 0, amount: 0 };
  if (!day)
    return {
      ...ctx,
      day: null,
      figures: mirrorFigures,
      flows: { topups: none, paid: none, promo: none, withdrawals: none, bonus: none },
      net_inflow: 0,
      hours: [],
      by_day,
      by_payment_method: [],
      by_nature: [],
      insights: null,
      latest: { data: [], next_cursor: null },
    };
  const [rows, latest] = await Promise.all([
    aggregates.flowHours(db, day.id),
    records.topupsPage(db, day.id, PAGE_SIZE + 1, after, options.direction ?? null),
  ]);
  const paidIn = countAmount(rows, (r) => r.direction === "topup" && r.nature === "paid").amount;
  const out = countAmount(rows, (r) => r.direction === "withdraw").amount;
  const hours = groupFlows(
    rows,
    (r) => r.hour,
    (hour) => ({ hour, topups: 0, withdrawals: 0 }),
  );
  const { figures, summary } = await daySource(db, ctx, day.id);
  return {
    ...ctx,
    day,
    figures,
    flows: summary ? flowTotalsOf(summary) : flowTotals(rows),
    // The summary does not split top-ups by nature: the net inflow waits for the records.
    net_inflow: summary ? null : paidIn - out,
    hours: fillHours(day, tzOf(ctx), hours, { topups: 0, withdrawals: 0 }),
    by_day,
    by_payment_method: summary
      ? topupMethodsOf(summary)
      : groupFlows(
          rows,
          (r) => r.payment_method,
          (payment_method) => ({ payment_method, topups: 0, withdrawals: 0, count: 0 }),
          true,
        ).sort((a, b) => a.payment_method.localeCompare(b.payment_method)),
    by_nature: groupFlows(
      rows,
      (r) => r.nature,
      (nature) => ({ nature, topups: 0, withdrawals: 0, count: 0 }),
      true,
    ).sort((a, b) => a.nature.localeCompare(b.nature)),
    insights: summary ? null : await topupInsights(db, ctx, day, rows),
    latest: toPage(
      latest.map(({ created_at: _, ...row }) => row),
      PAGE_SIZE,
    ),
  };
}

export async function scansDayReport(
  db: Queryable,
  options: { dayId: string | null; now: Date },
): Promise<ScansDayReport> {
  const ctx = await eventContext(db, options.now);
  const day = pickDay(ctx, options.dayId, options.now);
  const zoneRows = await aggregates.zones(db);
  if (!day)
    return {
      ...ctx,
      day: null,
      totals: { allowed: 0, denied: 0 },
      zones: zoneRows,
      hours: [],
      by_zone: [],
      denied_by_reason: [],
      latest_denials: [],
    };
  const rows = await aggregates.scanHours(db, day.id);
  // Scans without a zone (check-ins) have a null name: the screen says "no zone" in its language.
  const zoneName = (id: string) => (id ? (zoneRows.find((z) => z.zone_id === id)?.name ?? id) : null);
  const zones = new Map<string, { zone_id: string; name: string | null; allowed: number; denied: number }>();
  const hours = new Map<string, ScansDayReport["hours"][number]>();
  const reasons = new Map<string, number>();
  for (const r of rows) {
    const h = hours.get(r.hour) ?? { hour: r.hour, allowed: 0, denied: 0, by_zone: {} };
    const z = zones.get(r.zone_id) ?? {
      zone_id: r.zone_id,
      name: zoneName(r.zone_id),
      allowed: 0,
      denied: 0,
    };
    const side = r.allowed ? "allowed" : "denied";
    h[side] += r.count;
    z[side] += r.count;
    if (!r.allowed) reasons.set(r.reason || "unknown", (reasons.get(r.reason || "unknown") ?? 0) + r.count);
    h.by_zone[r.zone_id] = (h.by_zone[r.zone_id] ?? 0) + r.count;
    hours.set(r.hour, h);
    zones.set(r.zone_id, z);
  }
  // Named zones by name, the zoneless ones last.
  const byZone = [...zones.values()].sort(
    (a, b) => Number(a.name === null) - Number(b.name === null) || (a.name ?? "").localeCompare(b.name ?? ""),
  );
  return {
    ...ctx,
    day,
    totals: {
      allowed: byZone.reduce((n, z) => n + z.allowed, 0),
      denied: byZone.reduce((n, z) => n + z.denied, 0),
    },
    zones: byZone.map(({ zone_id, name }) => ({ zone_id, name })),
    hours: fillHours(day, tzOf(ctx), [...hours.values()], { allowed: 0, denied: 0, by_zone: {} }),
    by_zone: byZone,
    denied_by_reason: [...reasons.entries()]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count),
    latest_denials: await records.latestDenials(db, day.id),
  };
}
