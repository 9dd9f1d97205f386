import "server-only";
import type { Queryable } from "@/lib/db/db";

/**
 * The right-now figures' reads, by minute of `occurred_at`: the whole minutes of a window from the
 * minute tables the mirror's triggers keep exact (migration 021, function files 35-37), the minute
 * not over yet (up to `to`, now) from the records themselves through their `occurred_at` indexes.
 * A 15-minute window reads 14 minutes of aggregate rows and one minute of records, whatever the
 * mirror holds. `from` starts a minute.
 */

export interface Window {
  from: Date;
  to: Date;
}

const MINUTE = 60_000;

/** $1: the window's first minute, $2: the minute not over yet (where the records take over), $3: the end. */
function bounds(w: Window): string[] {
  const partial = new Date(Math.floor(w.to.getTime() / MINUTE) * MINUTE);
  return [w.from.toISOString(), partial.toISOString(), w.to.toISOString()];
}

const WHOLE = "minute >= $1::timestamptz and minute < $2::timestamptz";
const PARTIAL = "occurred_at >= $2::timestamptz and occurred_at < $3::timestamptz";

export function salesPerMinute(db: Queryable, w: Window) {
  return db.query<{ minute: string; count: number; total: number }>(
    `select minute, sum(count)::float8 as count, sum(total)::float8 as total from (
       select minute, count, total from a_now_sales_minute where ${WHOLE}
       union all
       select date_trunc('minute', occurred_at), 1, total from m_sales where ${PARTIAL} and status = 'completed'
     ) x group by minute order by minute`,
    bounds(w),
  );
}

/** Top-ups and withdrawals: paid money, promo credit (bonus, courtesy) and transfers kept apart. */
export function topupFlows(db: Queryable, w: Window) {
  return db.query<{ direction: string; kind: "paid" | "promo" | "transfer"; count: number; amount: number }>(
    `select direction, kind, sum(count)::float8 as count, sum(amount)::float8 as amount from (
       select direction, kind, count, amount from a_now_topups_minute where ${WHOLE}
       union all
       select direction,
         case when nature = 'paid' then 'paid' when nature = 'transfer' then 'transfer' else 'promo' end,
         1, amount
       from m_topups where ${PARTIAL} and status = 'completed'
     ) x group by 1, 2`,
    bounds(w),
  );
}

/** Door scans (check-ins and access checks) per zone, allowed and denied. */
export function scansByZone(db: Queryable, w: Window) {
  return db.query<{ zone_id: string; name: string; allowed: number; denied: number }>(
    `select x.zone_id, coalesce(max(z.name), x.zone_id) as name,
       coalesce(sum(x.count) filter (where x.allowed), 0)::float8 as allowed,
       coalesce(sum(x.count) filter (where not x.allowed), 0)::float8 as denied
     from (
       select zone_id, allowed, count from a_now_scans_minute where ${WHOLE}
       union all
       select coalesce(zone_id, ''), allowed, 1 from m_scans where ${PARTIAL}
     ) x left join m_zones z on z.id = x.zone_id
     group by x.zone_id
     order by 3 desc, 2`,
    bounds(w),
  );
}

/** The products sold most (by money charged) in the window. */
export function topProducts(db: Queryable, w: Window, limit: number) {
  return db.query<{ product_id: string; name: string; quantity: number; total: number }>(
    `select product_id, max(name) as name, sum(quantity)::float8 as quantity, sum(total)::float8 as total
     from (
       select product_id, name, quantity, total from a_now_products_minute where ${WHOLE}
       union all
       select i.product_id, i.name, i.quantity, i.charged_amount
       from m_sales s,
         jsonb_to_recordset(s.items) as i(product_id text, name text, quantity bigint, charged_amount bigint)
       where ${PARTIAL} and s.status = 'completed'
     ) x
     group by product_id
     order by 4 desc, 1 limit $4`,
    [...bounds(w), limit],
  );
}
