import "server-only";
import type {
  FlowTotals,
  LiveContext,
  LiveDay,
  OverviewReport,
  SaleRow,
  SalesDayReport,
  ScanRow,
  ScansDayReport,
  TopupRow,
  TopupsDayReport,
} from "@/lib/bff/live";
import type { Queryable } from "@/lib/db/db";
import { dayHours, dayOf } from "@/lib/live/time";
import { HttpError } from "../guard";
import { syncStatus } from "../sync/status";

/**
 * The live screens' reads. Totals, hours and breakdowns come from the aggregate tables the
 * mirror's triggers keep exact (migration 003); only the "latest" lists touch the mirror, through
 * an index, one page at a time.
 */

const iso = (v: unknown): string => new Date(v as string | Date).toISOString();
const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));

export async function liveContext(db: Queryable, now = new Date()): Promise<LiveContext> {
  const [event] = await db.query<{ name: string; currency: string; time_zone: string }>(
    "select name, currency, time_zone from m_event limit 1",
  );
  const days = (
    await db.query<Record<string, unknown>>(
      "select id, name, date, starts_at, ends_at from m_days order by starts_at",
    )
  ).map(
    (d): LiveDay => ({
      id: String(d.id),
      name: String(d.name),
      date: String(d.date),
      starts_at: iso(d.starts_at),
      ends_at: iso(d.ends_at),
    }),
  );
  const status = await syncStatus(db, { now, errorLimit: 1 });
  const sales = status.resources.find((r) => r.resource === "sales");
  const lastError = status.errors[0];
  return {
    event: event ?? null,
    days,
    as_of: sales?.lastSuccessAt ?? null,
    sync: {
      healthy: status.healthy,
      worker_stale: status.worker ? status.worker.stale : null,
      failing: status.resources.filter((r) => r.failing).map((r) => r.resource),
      last_error: lastError
        ? { message: lastError.message, request_id: lastError.requestId, at: lastError.at }
        : null,
      sales_lag_seconds: sales?.lagSeconds ?? null,
      days_mismatched: status.days.filter((d) => !d.matched).map((d) => d.dayId),
      pending: status.resources.filter((r) => r.lastSuccessAt === null).map((r) => r.resource),
    },
  };
}

/** The day asked for (400 if unknown), or the current event day. */
export function pickDay(ctx: LiveContext, dayId: string | null, now = new Date()): LiveDay | null {
  if (dayId) {
    const day = ctx.days.find((d) => d.id === dayId);
    if (!day) throw new HttpError(400, "invalid_parameter", `Unknown day_id ${dayId}.`);
    return day;
  }
  return dayOf(ctx.days, now);
}

const tzOf = (ctx: LiveContext) => ctx.event?.time_zone ?? "UTC";

async function flowTotals(db: Queryable, dayId: string): Promise<FlowTotals> {
  const rows = await db.query<{ direction: string; nature: string; count: number; amount: number }>(
    `select direction, nature, sum(count)::float8 as count, sum(amount)::float8 as amount
     from a_topups_hour where day_id = $1 group by direction, nature`,
    [dayId],
  );
  const sum = (pred: (r: (typeof rows)[number]) => boolean) => ({
    count: rows.filter(pred).reduce((n, r) => n + r.count, 0),
    amount: rows.filter(pred).reduce((n, r) => n + r.amount, 0),
  });
  return {
    topups: sum((r) => r.direction === "topup"),
    withdrawals: sum((r) => r.direction === "withdraw"),
    bonus: sum((r) => r.direction === "topup" && r.nature === "bonus"),
  };
}

async function salesHours(db: Queryable, dayId: string) {
  const rows = await db.query<{
    hour: Date | string;
    count: number;
    total: number;
    total_base: number;
    total_tax: number;
  }>(
    `select hour, count::float8 as count, total::float8 as total, total_base::float8 as total_base,
       total_tax::float8 as total_tax
     from a_sales_hour where day_id = $1 order by hour`,
    [dayId],
  );
  return rows.map((r) => ({ ...r, hour: iso(r.hour) }));
}

/** Every bucket of the day's window (zeros included), plus any bucket outside it (late-assigned records). */
function fillHours<T extends { hour: string }>(
  day: LiveDay,
  tz: string,
  rows: T[],
  zero: Omit<T, "hour">,
): T[] {
  const byHour = new Map(rows.map((r) => [r.hour, r]));
  const hours = new Set([...dayHours(day, tz), ...byHour.keys()]);
  return [...hours].sort().map((hour) => byHour.get(hour) ?? ({ ...zero, hour } as T));
}

const sumTotals = (rows: { count: number; total: number; total_base: number; total_tax: number }[]) => ({
  count: rows.reduce((n, r) => n + r.count, 0),
  total: rows.reduce((n, r) => n + r.total, 0),
  total_base: rows.reduce((n, r) => n + r.total_base, 0),
  total_tax: rows.reduce((n, r) => n + r.total_tax, 0),
});

export async function overviewReport(db: Queryable, now = new Date()): Promise<OverviewReport> {
  const ctx = await liveContext(db, now);
  const tz = tzOf(ctx);
  const day = pickDay(ctx, null, now);
  const index = day ? ctx.days.findIndex((d) => d.id === day.id) : -1;
  const previous = index > 0 ? (ctx.days[index - 1] ?? null) : null;

  const perDay = await db.query<{ day_id: string; count: number; total: number }>(
    "select day_id, sum(count)::float8 as count, sum(total)::float8 as total from a_sales_hour group by day_id",
  );
  const flowsPerDay = await db.query<{ day_id: string; direction: string; amount: number }>(
    "select day_id, direction, sum(amount)::float8 as amount from a_topups_hour group by day_id, direction",
  );
  const by_day = ctx.days.map((d) => {
    const s = perDay.find((r) => r.day_id === d.id);
    const flow = (dir: string) =>
      flowsPerDay.find((r) => r.day_id === d.id && r.direction === dir)?.amount ?? 0;
    return {
      day_id: d.id,
      name: d.name,
      date: d.date,
      count: s?.count ?? 0,
      total: s?.total ?? 0,
      topups: flow("topup"),
      withdrawals: flow("withdraw"),
    };
  });

  if (!day) {
    const empty = { count: 0, amount: 0 };
    return {
      ...ctx,
      day: null,
      previous_day: null,
      totals: { count: 0, total: 0, total_base: 0, total_tax: 0, average_basket: 0 },
      flows: { topups: empty, withdrawals: empty, bonus: empty },
      hours: [],
      by_day,
      late: { count: 0, total: 0, devices: [] },
    };
  }

  const hours = await salesHours(db, day.id);
  const totals = sumTotals(hours);
  const zero = { count: 0, total: 0, total_base: 0, total_tax: 0 };
  const filled = fillHours(day, tz, hours, zero);
  let previousFilled: typeof filled = [];
  if (previous) previousFilled = fillHours(previous, tz, await salesHours(db, previous.id), zero);
  const late = await db.query<{
    device_id: string;
    count: number;
    total: number;
    latest_created_at: unknown;
  }>(
    `select device_id, count::float8 as count, total::float8 as total, latest_created_at
     from a_sales_late where day_id = $1 order by count desc, device_id`,
    [day.id],
  );

  return {
    ...ctx,
    day,
    previous_day: previous,
    totals: { ...totals, average_basket: totals.count ? Math.round(totals.total / totals.count) : 0 },
    flows: await flowTotals(db, day.id),
    hours: filled.map((h, i) => ({
      hour: h.hour,
      total: h.total,
      count: h.count,
      previous_total: previous ? (previousFilled[i]?.total ?? null) : null,
    })),
    by_day,
    late: {
      count: late.reduce((n, r) => n + r.count, 0),
      total: late.reduce((n, r) => n + r.total, 0),
      devices: late.map((r) => ({
        device_id: r.device_id,
        count: r.count,
        total: r.total,
        latest_created_at: isoOrNull(r.latest_created_at),
      })),
    },
  };
}

// ── cursors of the "latest" lists: (occurred_at, id) of the last row shown ──────────────────────

export function encodeCursor(occurredAt: string, id: string): string {
  return Buffer.from(`${occurredAt}|${id}`).toString("base64url");
}

export function decodeCursor(cursor: string | null): { at: string; id: string } | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!at || !id || Number.isNaN(Date.parse(at)))
    throw new HttpError(400, "invalid_parameter", "Invalid cursor.");
  return { at, id };
}

export const PAGE_SIZE = 25;

export async function salesDayReport(
  db: Queryable,
  options: { dayId: string | null; cursor?: string | null; now?: Date },
): Promise<SalesDayReport> {
  const ctx = await liveContext(db, options.now);
  const day = pickDay(ctx, options.dayId, options.now);
  const empty = { data: [], next_cursor: null };
  if (!day)
    return {
      ...ctx,
      day: null,
      totals: { count: 0, total: 0, total_base: 0, total_tax: 0 },
      hours: [],
      by_product: [],
      by_device: [],
      by_payment_method: [],
      by_tax: [],
      latest: empty,
    };
  const hours = await salesHours(db, day.id);
  const by_product = await db.query<SalesDayReport["by_product"][number]>(
    `select product_id, name, quantity::float8 as quantity, total::float8 as total
     from a_sales_product where day_id = $1 order by total desc, product_id`,
    [day.id],
  );
  const by_device = await db.query<SalesDayReport["by_device"][number]>(
    `select device_id, count::float8 as count, total::float8 as total
     from a_sales_device where day_id = $1 order by total desc, device_id`,
    [day.id],
  );
  const by_payment_method = await db.query<SalesDayReport["by_payment_method"][number]>(
    `select payment_method, count::float8 as count, total::float8 as total
     from a_sales_payment where day_id = $1 order by total desc, payment_method`,
    [day.id],
  );
  const by_tax = await db.query<SalesDayReport["by_tax"][number]>(
    `select tax_type, rate::float8 as rate, base::float8 as base, tax::float8 as tax
     from a_sales_tax where day_id = $1 order by tax_type, rate`,
    [day.id],
  );
  return {
    ...ctx,
    day,
    totals: sumTotals(hours),
    hours: fillHours(day, tzOf(ctx), hours, { count: 0, total: 0, total_base: 0, total_tax: 0 }),
    by_product,
    by_device,
    by_payment_method,
    by_tax,
    latest: await latestSales(db, day.id, options.cursor ?? null),
  };
}

async function latestSales(db: Queryable, dayId: string, cursor: string | null, limit = PAGE_SIZE) {
  const after = decodeCursor(cursor);
  const rows = await db.query<Record<string, unknown>>(
    `select id, status, type, payment_method, total, device_id, occurred_at, created_at from m_sales
     where day_id = $1 ${after ? "and (occurred_at, id) < ($3::timestamptz, $4::text)" : ""}
     order by occurred_at desc, id desc limit $2`,
    after ? [dayId, limit + 1, after.at, after.id] : [dayId, limit + 1],
  );
  const data = rows.slice(0, limit).map(
    (r): SaleRow => ({
      id: String(r.id),
      status: String(r.status),
      type: String(r.type),
      payment_method: String(r.payment_method),
      total: Number(r.total),
      device_id: (r.device_id as string | null) ?? null,
      occurred_at: iso(r.occurred_at),
      created_at: iso(r.created_at),
    }),
  );
  const last = data[data.length - 1];
  return { data, next_cursor: rows.length > limit && last ? encodeCursor(last.occurred_at, last.id) : null };
}

export async function topupsDayReport(
  db: Queryable,
  options: {
    dayId: string | null;
    direction?: "topup" | "withdraw" | null;
    cursor?: string | null;
    now?: Date;
  },
): Promise<TopupsDayReport> {
  const ctx = await liveContext(db, options.now);
  const day = pickDay(ctx, options.dayId, options.now);
  const perDay = await db.query<{ day_id: string; direction: string; amount: number }>(
    "select day_id, direction, sum(amount)::float8 as amount from a_topups_hour group by day_id, direction",
  );
  const by_day = ctx.days.map((d) => ({
    day_id: d.id,
    name: d.name,
    topups: perDay.find((r) => r.day_id === d.id && r.direction === "topup")?.amount ?? 0,
    withdrawals: perDay.find((r) => r.day_id === d.id && r.direction === "withdraw")?.amount ?? 0,
  }));
  const none = { count: 0, amount: 0 };
  if (!day)
    return {
      ...ctx,
      day: null,
      flows: { topups: none, withdrawals: none, bonus: none },
      net_inflow: 0,
      hours: [],
      by_day,
      by_payment_method: [],
      by_nature: [],
      latest: { data: [], next_cursor: null },
    };
  const rows = await db.query<{
    hour: Date | string;
    direction: string;
    payment_method: string;
    nature: string;
    count: number;
    amount: number;
  }>(
    `select hour, direction, payment_method, nature, count::float8 as count, amount::float8 as amount
     from a_topups_hour where day_id = $1`,
    [day.id],
  );
  const hourRows = new Map<string, { hour: string; topups: number; withdrawals: number }>();
  const methods = new Map<
    string,
    { payment_method: string; topups: number; withdrawals: number; count: number }
  >();
  const natures = new Map<string, { nature: string; topups: number; withdrawals: number; count: number }>();
  let paidIn = 0;
  let out = 0;
  for (const r of rows) {
    const hour = iso(r.hour);
    const h = hourRows.get(hour) ?? { hour, topups: 0, withdrawals: 0 };
    const m = methods.get(r.payment_method) ?? {
      payment_method: r.payment_method,
      topups: 0,
      withdrawals: 0,
      count: 0,
    };
    const n = natures.get(r.nature) ?? { nature: r.nature, topups: 0, withdrawals: 0, count: 0 };
    const key = r.direction === "topup" ? "topups" : "withdrawals";
    h[key] += r.amount;
    m[key] += r.amount;
    n[key] += r.amount;
    m.count += r.count;
    n.count += r.count;
    hourRows.set(hour, h);
    methods.set(r.payment_method, m);
    natures.set(r.nature, n);
    if (r.direction === "topup" && r.nature === "paid") paidIn += r.amount;
    if (r.direction === "withdraw") out += r.amount;
  }
  return {
    ...ctx,
    day,
    flows: await flowTotals(db, day.id),
    net_inflow: paidIn - out,
    hours: fillHours(day, tzOf(ctx), [...hourRows.values()], { topups: 0, withdrawals: 0 }),
    by_day,
    by_payment_method: [...methods.values()].sort((a, b) => a.payment_method.localeCompare(b.payment_method)),
    by_nature: [...natures.values()].sort((a, b) => a.nature.localeCompare(b.nature)),
    latest: await latestTopups(db, day.id, options.direction ?? null, options.cursor ?? null),
  };
}

async function latestTopups(
  db: Queryable,
  dayId: string,
  direction: string | null,
  cursor: string | null,
  limit = PAGE_SIZE,
) {
  const after = decodeCursor(cursor);
  const params: unknown[] = [dayId, limit + 1];
  let where = "";
  if (direction) {
    params.push(direction);
    where += ` and direction = $${params.length}`;
  }
  if (after) {
    params.push(after.at, after.id);
    where += ` and (occurred_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::text)`;
  }
  const rows = await db.query<Record<string, unknown>>(
    `select id, direction, amount, payment_method, nature, status, device_id, occurred_at from m_topups
     where day_id = $1${where} order by occurred_at desc, id desc limit $2`,
    params,
  );
  const data = rows.slice(0, limit).map(
    (r): TopupRow => ({
      id: String(r.id),
      direction: r.direction as TopupRow["direction"],
      amount: Number(r.amount),
      payment_method: String(r.payment_method),
      nature: String(r.nature),
      status: String(r.status),
      device_id: (r.device_id as string | null) ?? null,
      occurred_at: iso(r.occurred_at),
    }),
  );
  const last = data[data.length - 1];
  return { data, next_cursor: rows.length > limit && last ? encodeCursor(last.occurred_at, last.id) : null };
}

export async function scansDayReport(
  db: Queryable,
  options: { dayId: string | null; now?: Date },
): Promise<ScansDayReport> {
  const ctx = await liveContext(db, options.now);
  const day = pickDay(ctx, options.dayId, options.now);
  const zoneRows = await db.query<{ zone_id: string; name: string }>(
    "select id as zone_id, name from m_zones order by name",
  );
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
  const rows = await db.query<{
    hour: Date | string;
    zone_id: string;
    allowed: boolean;
    reason: string;
    count: number;
  }>("select hour, zone_id, allowed, reason, count::float8 as count from a_scans_hour where day_id = $1", [
    day.id,
  ]);
  const zoneName = (id: string) => (id ? (zoneRows.find((z) => z.zone_id === id)?.name ?? id) : "No zone");
  const zones = new Map<string, { zone_id: string; name: string; allowed: number; denied: number }>();
  const hours = new Map<string, ScansDayReport["hours"][number]>();
  const reasons = new Map<string, number>();
  for (const r of rows) {
    const hour = iso(r.hour);
    const h = hours.get(hour) ?? { hour, allowed: 0, denied: 0, by_zone: {} };
    const z = zones.get(r.zone_id) ?? {
      zone_id: r.zone_id,
      name: zoneName(r.zone_id),
      allowed: 0,
      denied: 0,
    };
    if (r.allowed) {
      h.allowed += r.count;
      z.allowed += r.count;
    } else {
      h.denied += r.count;
      z.denied += r.count;
      reasons.set(r.reason || "unknown", (reasons.get(r.reason || "unknown") ?? 0) + r.count);
    }
    h.by_zone[r.zone_id] = (h.by_zone[r.zone_id] ?? 0) + r.count;
    hours.set(hour, h);
    zones.set(r.zone_id, z);
  }
  const denials = await db.query<Record<string, unknown>>(
    `select s.id, s.kind, s.reason, z.name as zone, s.ticket_code, s.device_id, s.occurred_at
     from m_scans s left join m_zones z on z.id = s.zone_id
     where s.day_id = $1 and s.allowed = false order by s.occurred_at desc, s.id desc limit 20`,
    [day.id],
  );
  const byZone = [...zones.values()].sort((a, b) => a.name.localeCompare(b.name));
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
    latest_denials: denials.map(
      (r): ScanRow => ({
        id: String(r.id),
        kind: String(r.kind),
        reason: (r.reason as string | null) ?? null,
        zone: (r.zone as string | null) ?? null,
        ticket_code: (r.ticket_code as string | null) ?? null,
        device_id: (r.device_id as string | null) ?? null,
        occurred_at: iso(r.occurred_at),
      }),
    ),
  };
}
