import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { DraftLine, FloatEntry } from "@/lib/shared/api/night";
import type { DenominationCounts } from "@/lib/shared/denominations";

/**
 * SQL of closing a night (migration 017): opening floats (every entry kept, the latest counts),
 * draft counts (the latest save wins), and approvals (one per sign-off, only ever inserted).
 */

/** The current float of each desk of a night: its latest entry. */
export function floatsOf(db: Queryable, dayId: string): Promise<FloatEntry[]> {
  return db.query<FloatEntry>(
    `select distinct on (device_id) device_id, amount::float8 as amount, username, set_at
     from recon_floats where day_id = $1 order by device_id, id desc`,
    [dayId],
  );
}

export async function insertFloat(
  db: Queryable,
  f: { day_id: string; device_id: string; amount: number; user_id: string; username: string; at: Date },
): Promise<void> {
  await db.query(
    `insert into recon_floats (day_id, device_id, amount, set_at, user_id, username)
     values ($1, $2, $3, $4, $5, $6)`,
    [f.day_id, f.device_id, f.amount, f.at.toISOString(), f.user_id, f.username],
  );
}

export function draftOf(db: Queryable, dayId: string): Promise<DraftLine[]> {
  return db.query<DraftLine>(
    `select device_id, payment_method, counted::float8 as counted, denominations, username, updated_at
     from recon_count_drafts where day_id = $1 order by device_id, payment_method`,
    [dayId],
  );
}

/** Saves draft lines (one statement per line, in the caller's transaction); null clears a line. */
export async function saveDraftLines(
  db: Queryable,
  dayId: string,
  lines: {
    device_id: string;
    payment_method: string;
    counted: number | null;
    denominations: DenominationCounts | null;
  }[],
  by: { username: string; at: Date },
): Promise<void> {
  for (const l of lines) {
    if (l.counted === null) {
      await db.query(
        "delete from recon_count_drafts where day_id = $1 and device_id = $2 and payment_method = $3",
        [dayId, l.device_id, l.payment_method],
      );
      continue;
    }
    await db.query(
      `insert into recon_count_drafts (day_id, device_id, payment_method, counted, denominations, updated_at, username)
       values ($1, $2, $3, $4, $5::jsonb, $6, $7)
       on conflict (day_id, device_id, payment_method) do update set counted = excluded.counted,
         denominations = excluded.denominations, updated_at = excluded.updated_at, username = excluded.username`,
      [
        dayId,
        l.device_id,
        l.payment_method,
        l.counted,
        l.denominations === null ? null : JSON.stringify(l.denominations),
        by.at.toISOString(),
        by.username,
      ],
    );
  }
}

/**
 * Stores a manager's approval of a sign-off, or nothing when it already has one (the primary key):
 * answers whether it was stored.
 */
export async function insertApproval(
  db: Queryable,
  a: { signoff_id: string; user_id: string; username: string; comment: string; at: Date },
): Promise<boolean> {
  const rows = await db.query(
    `insert into recon_approvals (signoff_id, approved_at, user_id, username, comment)
     values ($1::bigint, $2, $3, $4, $5) on conflict do nothing returning signoff_id`,
    [a.signoff_id, a.at.toISOString(), a.user_id, a.username, a.comment],
  );
  return rows.length === 1;
}
