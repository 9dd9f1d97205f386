import "server-only";
import type { Topup } from "@/lib/contract";
import type { Queryable } from "@/lib/db/db";

/** A wristband's top-ups from the mirror (the API has no per-wristband top-up list), newest first. */
export async function wristbandTopups(db: Queryable, wristbandId: string, limit = 200): Promise<Topup[]> {
  const rows = await db.query<Omit<Topup, "object">>(
    `select id, direction, amount, previous_balance, new_balance, payment_method, nature, status,
            wristband_id, day_id, device_id, occurred_at, created_at
       from m_topups where wristband_id = $1 order by occurred_at desc limit $2`,
    [wristbandId, limit],
  );
  return rows.map((t) => ({ object: "topup", ...t }));
}
