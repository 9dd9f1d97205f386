import "server-only";
import type { Queryable } from "@/lib/db/db";

/**
 * The right-now figures' reads: completed records whose `occurred_at` falls in a window of a few
 * minutes, through the `occurred_at` indexes of m_sales, m_topups and m_scans (a range scan of the
 * window's rows, whatever the mirror's size). Minutes are the event zone's (`tz`), as UTC instants.
 */

export interface Window {
  from: Date;
  to: Date;
}

/** The event-local minute holding occurred_at ($3: the zone), as its UTC instant. */
const MINUTE = "(date_trunc('minute', occurred_at at time zone $3) at time zone $3)";

export function salesPerMinute(db: Queryable, w: Window, tz: string) {
  return db.query<{ minute: string; count: number; total: number }>(
    `select ${MINUTE} as minute, count(*)::float8 as count, sum(total)::float8 as total
     from m_sales
     where occurred_at >= $1 and occurred_at < $2 and status = 'completed'
     group by 1 order by 1`,
    [w.from.toISOString(), w.to.toISOString(), tz],
  );
}

/** Top-ups and withdrawals: paid money, promo credit (bonus, courtesy) and transfers kept apart. */
export function topupFlows(db: Queryable, w: Window) {
  return db.query<{ direction: string; kind: "paid" | "promo" | "transfer"; count: number; amount: number }>(
    `select direction,
       case when nature = 'paid' then 'paid' when nature = 'transfer' then 'transfer' else 'promo' end as kind,
       count(*)::float8 as count, sum(amount)::float8 as amount
     from m_topups
     where occurred_at >= $1 and occurred_at < $2 and status = 'completed'
     group by 1, 2`,
    [w.from.toISOString(), w.to.toISOString()],
  );
}

/** Door scans (check-ins and access checks) per zone, allowed and denied. */
export function scansByZone(db: Queryable, w: Window) {
  return db.query<{ zone_id: string; name: string; allowed: number; denied: number }>(
    `select coalesce(s.zone_id, '') as zone_id, coalesce(max(z.name), s.zone_id, '') as name,
       (count(*) filter (where s.allowed))::float8 as allowed,
       (count(*) filter (where not s.allowed))::float8 as denied
     from m_scans s left join m_zones z on z.id = s.zone_id
     where s.occurred_at >= $1 and s.occurred_at < $2
     group by s.zone_id
     order by 3 desc, 2`,
    [w.from.toISOString(), w.to.toISOString()],
  );
}

/** The products sold most (by money charged) in the window. */
export function topProducts(db: Queryable, w: Window, limit: number) {
  return db.query<{ product_id: string; name: string; quantity: number; total: number }>(
    `select i.product_id, max(i.name) as name, sum(i.quantity)::float8 as quantity,
       sum(i.charged_amount)::float8 as total
     from m_sales s,
       jsonb_to_recordset(s.items) as i(product_id text, name text, quantity bigint, charged_amount bigint)
     where s.occurred_at >= $1 and s.occurred_at < $2 and s.status = 'completed'
     group by i.product_id
     order by 4 desc, 1 limit $3`,
    [w.from.toISOString(), w.to.toISOString(), limit],
  );
}
