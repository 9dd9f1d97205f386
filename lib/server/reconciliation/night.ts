import "server-only";
import type { LiveDay } from "@/lib/bff/live";
import type {
  LateArrivals,
  NightChecksum,
  NightFigures,
  NightReport,
  Signoff,
  SignoffRequest,
  SignoffSnapshot,
} from "@/lib/bff/reconciliation";
import type { Db, Queryable } from "@/lib/db/db";
import { countedLines, driftOf, expectedByDesk } from "@/lib/reconciliation/arithmetic";
import { HttpError } from "../guard";
import { liveContext, pickDay } from "../live/queries";
import { mirrorDayTotals } from "../sync/mirror";

/**
 * Night reconciliation (issue #7). A night is an event day; its records are those the day rule
 * assigned to it by `occurred_at` (`day_id`, as GET /reports/sales-summary groups them). Totals and
 * breakdowns come from the live aggregates (migration 003); per-desk expected money and late
 * arrivals read the mirror by the (day_id, …) indexes.
 */

const iso = (v: unknown): string => new Date(v as string | Date).toISOString();
const isoOrNull = (v: unknown): string | null => (v == null ? null : iso(v));
const json = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

export async function nightFigures(db: Queryable, dayId: string): Promise<NightFigures> {
  const [sales] = await db.query<NightFigures["sales"]>(
    `select coalesce(sum(count), 0)::float8 as count, coalesce(sum(total), 0)::float8 as total,
       coalesce(sum(total_base), 0)::float8 as total_base, coalesce(sum(total_tax), 0)::float8 as total_tax
     from a_sales_hour where day_id = $1`,
    [dayId],
  );
  const sales_by_payment_method = await db.query<NightFigures["sales_by_payment_method"][number]>(
    `select payment_method, count::float8 as count, total::float8 as total
     from a_sales_payment where day_id = $1 order by payment_method`,
    [dayId],
  );
  const sales_by_device = await db.query<NightFigures["sales_by_device"][number]>(
    `select device_id, count::float8 as count, total::float8 as total
     from a_sales_device where day_id = $1 order by device_id`,
    [dayId],
  );
  const sales_by_tax = await db.query<NightFigures["sales_by_tax"][number]>(
    `select tax_type, rate::float8 as rate, base::float8 as base, tax::float8 as tax
     from a_sales_tax where day_id = $1 order by tax_type, rate`,
    [dayId],
  );
  const flows = await db.query<{
    direction: string;
    payment_method: string;
    nature: string;
    count: number;
    amount: number;
  }>(
    `select direction, payment_method, nature, sum(count)::float8 as count, sum(amount)::float8 as amount
     from a_topups_hour where day_id = $1 group by 1, 2, 3`,
    [dayId],
  );
  const total = (rows: typeof flows) => ({
    count: rows.reduce((n, r) => n + r.count, 0),
    amount: rows.reduce((n, r) => n + r.amount, 0),
  });
  const byMethod = (rows: typeof flows) => {
    const m = new Map<string, { payment_method: string; count: number; amount: number }>();
    for (const r of rows) {
      const x = m.get(r.payment_method) ?? { payment_method: r.payment_method, count: 0, amount: 0 };
      x.count += r.count;
      x.amount += r.amount;
      m.set(r.payment_method, x);
    }
    return [...m.values()].sort((a, b) => a.payment_method.localeCompare(b.payment_method));
  };
  const topupRows = flows.filter((r) => r.direction === "topup");
  const withdrawRows = flows.filter((r) => r.direction === "withdraw");

  // Money per desk: paid top-ups and withdrawals, and sales, by device and method.
  const deskFlows = await db.query<{
    direction: string;
    device_id: string | null;
    payment_method: string;
    amount: number;
  }>(
    `select direction, device_id, payment_method, sum(amount)::float8 as amount from m_topups
     where day_id = $1 and status = 'completed' and nature = 'paid' group by 1, 2, 3`,
    [dayId],
  );
  const deskSales = await db.query<{ device_id: string | null; payment_method: string; amount: number }>(
    `select device_id, payment_method, sum(total)::float8 as amount from m_sales
     where day_id = $1 and status = 'completed' group by 1, 2`,
    [dayId],
  );

  return {
    day_id: dayId,
    sales: sales ?? { count: 0, total: 0, total_base: 0, total_tax: 0 },
    sales_by_payment_method,
    sales_by_device,
    sales_by_tax,
    topups: total(topupRows),
    topups_by_payment_method: byMethod(topupRows),
    withdrawals: total(withdrawRows),
    withdrawals_by_payment_method: byMethod(withdrawRows),
    bonuses: total(topupRows.filter((r) => r.nature === "bonus")),
    transfers: total(flows.filter((r) => r.nature === "transfer")),
    expected: expectedByDesk({
      topups: deskFlows.filter((r) => r.direction === "topup"),
      withdrawals: deskFlows.filter((r) => r.direction === "withdraw"),
      sales: deskSales,
    }),
  };
}

export async function nightChecksum(
  db: Queryable,
  dayId: string,
  figures: NightFigures,
): Promise<NightChecksum> {
  const [c] = await db.query<Record<string, unknown>>("select * from sync_day_checks where day_id = $1", [
    dayId,
  ]);
  const [pending] = await db.query<{ at: unknown }>(
    "select min(requested_at) as at from sync_requests where day_id = $1 and handled_at is null",
    [dayId],
  );
  const resync_pending_since = isoOrNull(pending?.at);
  if (!c)
    return {
      upstream: null,
      checked_at: null,
      matched: null,
      difference: null,
      rewalks: 0,
      last_rewalk_at: null,
      resync_pending_since,
    };
  const upstream = json<NonNullable<NightChecksum["upstream"]>>(c.upstream);
  const diff = (mine: {
    sales: NightFigures["sales"];
    topups: { amount: number };
    withdrawals: { amount: number };
  }) => ({
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
  const matched = zero(all) || zero(upTo);
  return {
    upstream,
    checked_at: iso(c.checked_at),
    matched,
    difference: upTo,
    rewalks: Number(c.rewalks),
    last_rewalk_at: isoOrNull(c.last_rewalk_at),
    resync_pending_since,
  };
}

/** Records of the night that reached the upstream at or after the night's end. */
export async function lateArrivals(db: Queryable, day: LiveDay): Promise<LateArrivals> {
  const rows = await db.query<{ device_id: string; count: number; amount: number; latest: unknown }>(
    `select device_id, sum(count)::float8 as count, sum(amount)::float8 as amount, max(latest) as latest from (
       select coalesce(device_id, '') as device_id, count(*) as count, sum(total) as amount, max(created_at) as latest
       from m_sales where day_id = $1 and status = 'completed' and created_at >= $2 group by 1
       union all
       select coalesce(device_id, ''), count(*), sum(case when direction = 'withdraw' then -amount else amount end),
         max(created_at)
       from m_topups where day_id = $1 and status = 'completed' and created_at >= $2 group by 1
     ) x group by device_id order by count desc, device_id`,
    [day.id, day.ends_at],
  );
  const by_device = rows.map((r) => ({
    device_id: r.device_id,
    count: r.count,
    amount: r.amount,
    latest_created_at: isoOrNull(r.latest),
  }));
  const latest = by_device
    .map((d) => d.latest_created_at)
    .filter((x): x is string => x !== null)
    .sort()
    .at(-1);
  return {
    count: by_device.reduce((n, d) => n + d.count, 0),
    amount: by_device.reduce((n, d) => n + d.amount, 0),
    latest_created_at: latest ?? null,
    by_device,
  };
}

function signoffFrom(r: Record<string, unknown>): Signoff {
  return {
    id: String(r.id),
    day_id: String(r.day_id),
    signed_at: iso(r.signed_at),
    username: String(r.username),
    comment: String(r.comment),
    counted: json(r.counted),
    snapshot: json(r.snapshot),
  };
}

export async function signoffsOf(db: Queryable, dayId: string): Promise<Signoff[]> {
  const rows = await db.query<Record<string, unknown>>(
    "select * from recon_signoffs where day_id = $1 order by id desc",
    [dayId],
  );
  return rows.map(signoffFrom);
}

export async function nightReport(
  db: Queryable,
  options: { dayId: string | null; now?: Date },
): Promise<NightReport> {
  const now = options.now ?? new Date();
  const ctx = await liveContext(db, now);
  // Default: the latest night that has ended, else the current one.
  let day = options.dayId ? pickDay(ctx, options.dayId, now) : null;
  if (!options.dayId)
    day =
      [...ctx.days].reverse().find((d) => Date.parse(d.ends_at) <= now.getTime()) ?? pickDay(ctx, null, now);
  if (!day)
    return {
      ...ctx,
      day: null,
      ended: false,
      figures: null,
      checksum: null,
      late: null,
      signoffs: [],
      drift: null,
    };
  const figures = await nightFigures(db, day.id);
  const signoffs = await signoffsOf(db, day.id);
  const last = signoffs[0];
  return {
    ...ctx,
    day,
    ended: Date.parse(day.ends_at) <= now.getTime(),
    figures,
    checksum: await nightChecksum(db, day.id, figures),
    late: await lateArrivals(db, day),
    signoffs,
    drift: last ? driftOf(last.id, last.snapshot.figures, figures) : null,
  };
}

/**
 * Signs a night off: the counted money per desk and method against the expected, a comment, and a
 * snapshot of the night as it is now. Only ever an INSERT (the store refuses updates and deletes).
 */
export async function signOff(
  db: Db,
  user: { id: string; username: string },
  request: SignoffRequest,
  now = new Date(),
): Promise<Signoff> {
  return db.transaction(async (tx) => {
    const ctx = await liveContext(tx, now);
    const day = ctx.days.find((d) => d.id === request.day_id);
    if (!day) throw new HttpError(400, "invalid_parameter", `Unknown day_id ${request.day_id}.`);
    const figures = await nightFigures(tx, day.id);
    const snapshot: SignoffSnapshot = {
      figures,
      checksum: await nightChecksum(tx, day.id, figures),
      late: await lateArrivals(tx, day),
    };
    const counted = countedLines(figures.expected, request.counted);
    const [row] = await tx.query<Record<string, unknown>>(
      `insert into recon_signoffs (day_id, signed_at, user_id, username, comment, counted, snapshot)
       values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb) returning *`,
      [
        day.id,
        now.toISOString(),
        user.id,
        user.username,
        request.comment,
        JSON.stringify(counted),
        JSON.stringify(snapshot),
      ],
    );
    return signoffFrom(row!);
  });
}

/** Asks the sync worker to re-walk this day's sales and top-ups on its next cycle. */
export async function requestResync(db: Queryable, dayId: string, username: string, now = new Date()) {
  const [day] = await db.query("select id from m_days where id = $1", [dayId]);
  if (!day) throw new HttpError(400, "invalid_parameter", `Unknown day_id ${dayId}.`);
  const [existing] = await db.query<{ requested_at: unknown }>(
    "select requested_at from sync_requests where day_id = $1 and handled_at is null limit 1",
    [dayId],
  );
  if (existing) return { day_id: dayId, requested_at: iso(existing.requested_at) };
  await db.query("insert into sync_requests (day_id, requested_at, requested_by) values ($1, $2, $3)", [
    dayId,
    now.toISOString(),
    username,
  ]);
  return { day_id: dayId, requested_at: now.toISOString() };
}
