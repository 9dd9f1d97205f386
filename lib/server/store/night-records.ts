import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { Signoff } from "@/lib/shared/api/reconciliation";

/** SQL of the night reconciliation: money per desk, late arrivals, sign-offs (insert-only). */

/** Paid top-ups and withdrawals per desk and method (bonus, promo and transfers move no money). */
export function deskFlows(db: Queryable, dayId: string) {
  return db.query<{ direction: string; device_id: string | null; payment_method: string; amount: number }>(
    `select direction, device_id, payment_method, sum(amount)::float8 as amount from m_topups
     where day_id = $1 and status = 'completed' and nature = 'paid' group by 1, 2, 3`,
    [dayId],
  );
}

export function deskSales(db: Queryable, dayId: string) {
  return db.query<{ device_id: string | null; payment_method: string; amount: number }>(
    `select device_id, payment_method, sum(total)::float8 as amount from m_sales
     where day_id = $1 and status = 'completed' group by 1, 2`,
    [dayId],
  );
}

/** Completed records of the night that reached the upstream at or after `since`, per device. */
export function lateByDevice(db: Queryable, dayId: string, since: string) {
  return db.query<{ device_id: string; count: number; amount: number; latest_created_at: string | null }>(
    `select device_id, sum(count)::float8 as count, sum(amount)::float8 as amount, max(latest) as latest_created_at
     from (
       select coalesce(device_id, '') as device_id, count(*) as count, sum(total) as amount, max(created_at) as latest
       from m_sales where day_id = $1 and status = 'completed' and created_at >= $2 group by 1
       union all
       select coalesce(device_id, ''), count(*), sum(case when direction = 'withdraw' then -amount else amount end),
         max(created_at)
       from m_topups where day_id = $1 and status = 'completed' and created_at >= $2 group by 1
     ) x group by device_id order by count desc, device_id`,
    [dayId, since],
  );
}

export function signoffsOf(db: Queryable, dayId: string): Promise<Signoff[]> {
  return db.query<Signoff>(
    `select id::text as id, day_id, signed_at, username, comment, counted, snapshot
     from recon_signoffs where day_id = $1 order by recon_signoffs.id desc`,
    [dayId],
  );
}

/** Sign-offs are history: only ever inserted (a trigger refuses updates and deletes). */
export async function insertSignoff(
  db: Queryable,
  row: Omit<Signoff, "id"> & { user_id: string },
): Promise<Signoff> {
  const [created] = await db.query<Signoff>(
    `insert into recon_signoffs (day_id, signed_at, user_id, username, comment, counted, snapshot)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)
     returning id::text as id, day_id, signed_at, username, comment, counted, snapshot`,
    [
      row.day_id,
      row.signed_at,
      row.user_id,
      row.username,
      row.comment,
      JSON.stringify(row.counted),
      JSON.stringify(row.snapshot),
    ],
  );
  return created!;
}

/**
 * The terminals active in a night: their records that night and the newest of them, and when they
 * were last heard of (any night: newest record and newest arrival).
 */
export function nightTerminals(db: Queryable, dayId: string) {
  return db.query<{
    device_id: string;
    records: number;
    night_last_record: string | null;
    synced_up_to: string | null;
    last_arrival: string | null;
  }>(
    `select d.device_id, d.records::float8 as records, d.last_occurred_at as night_last_record,
       (select max(x.last_occurred_at) from a_device_day x where x.device_id = d.device_id) as synced_up_to,
       (select max(x.last_created_at) from a_device_day x where x.device_id = d.device_id) as last_arrival
     from a_device_day d where d.day_id = $1 order by d.device_id`,
    [dayId],
  );
}

/** The latest waiver of each terminal of a night. */
export function waiversOf(db: Queryable, dayId: string) {
  return db.query<{ device_id: string; username: string; reason: string; waived_at: string }>(
    `select distinct on (device_id) device_id, username, reason, waived_at from recon_waivers
     where day_id = $1 order by device_id, id desc`,
    [dayId],
  );
}

/** A supervisor waives a terminal of a night (only ever inserted). */
export async function insertWaiver(
  db: Queryable,
  w: { day_id: string; device_id: string; user_id: string; username: string; reason: string; at: Date },
): Promise<void> {
  await db.query(
    `insert into recon_waivers (day_id, device_id, waived_at, user_id, username, reason)
     values ($1, $2, $3, $4, $5, $6)`,
    [w.day_id, w.device_id, w.at.toISOString(), w.user_id, w.username, w.reason],
  );
}
