import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { Signoff } from "@/lib/shared/api/night";

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

/** A sign-off row as stored, with its approval (the status is derived by the caller). */
export type SignoffRow = Omit<Signoff, "status"> & { superseded: boolean; user_id: string };

const SIGNOFF_COLUMNS = `s.id::text as id, s.day_id, s.signed_at, s.user_id, s.username, s.comment, s.counted,
  s.snapshot, s.supersedes::text as supersedes, s.needs_approval,
  case when a.signoff_id is null then null
    else jsonb_build_object('username', a.username, 'comment', a.comment,
      'approved_at', to_char(a.approved_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) end
    as approval,
  exists (select 1 from recon_signoffs n where n.supersedes = s.id) as superseded`;

const SIGNOFF_FROM = "recon_signoffs s left join recon_approvals a on a.signoff_id = s.id";

/** The night's sign-offs, newest first, with their approvals. */
export function signoffsOf(db: Queryable, dayId: string): Promise<SignoffRow[]> {
  return db.query<SignoffRow>(
    `select ${SIGNOFF_COLUMNS} from ${SIGNOFF_FROM} where s.day_id = $1 order by s.id desc`,
    [dayId],
  );
}

export async function signoffById(db: Queryable, id: string): Promise<SignoffRow | null> {
  const [row] = await db.query<SignoffRow>(
    `select ${SIGNOFF_COLUMNS} from ${SIGNOFF_FROM} where s.id = $1::bigint`,
    [id],
  );
  return row ?? null;
}

export async function signoffByKey(db: Queryable, key: string): Promise<SignoffRow | null> {
  const [row] = await db.query<SignoffRow>(
    `select ${SIGNOFF_COLUMNS} from ${SIGNOFF_FROM} where s.idempotency_key = $1::uuid`,
    [key],
  );
  return row ?? null;
}

/**
 * Stores a sign-off, or nothing when a unique constraint says it may not be (migration 017): its
 * idempotency key was used, the night already has a first sign-off (`supersedes` null), or the
 * sign-off it supersedes already has a successor. Answers the new row's id, or null. Sign-offs
 * are history: only ever inserted (a trigger refuses updates and deletes).
 */
export async function insertSignoff(
  db: Queryable,
  row: Pick<Signoff, "day_id" | "signed_at" | "username" | "comment" | "counted" | "snapshot"> & {
    user_id: string;
    idempotency_key: string;
    supersedes: string | null;
    needs_approval: boolean;
  },
): Promise<string | null> {
  const [created] = await db.query<{ id: string }>(
    `insert into recon_signoffs (day_id, signed_at, user_id, username, comment, counted, snapshot,
       idempotency_key, supersedes, needs_approval)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::uuid, $9::bigint, $10)
     on conflict do nothing
     returning id::text as id`,
    [
      row.day_id,
      row.signed_at,
      row.user_id,
      row.username,
      row.comment,
      JSON.stringify(row.counted),
      JSON.stringify(row.snapshot),
      row.idempotency_key,
      row.supersedes,
      row.needs_approval,
    ],
  );
  return created?.id ?? null;
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

/** The waiver of each terminal of a night (one per terminal and night: migration 017). */
export function waiversOf(db: Queryable, dayId: string) {
  return db.query<{ device_id: string; username: string; reason: string; waived_at: string }>(
    `select device_id, username, reason, waived_at from recon_waivers where day_id = $1 order by device_id`,
    [dayId],
  );
}

/**
 * A supervisor waives a terminal of a night (only ever inserted, once per terminal and night).
 * Answers whether it was stored: false when the terminal was already waived.
 */
export async function insertWaiver(
  db: Queryable,
  w: { day_id: string; device_id: string; user_id: string; username: string; reason: string; at: Date },
): Promise<boolean> {
  const rows = await db.query(
    `insert into recon_waivers (day_id, device_id, waived_at, user_id, username, reason)
     values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning id`,
    [w.day_id, w.device_id, w.at.toISOString(), w.user_id, w.username, w.reason],
  );
  return rows.length === 1;
}
