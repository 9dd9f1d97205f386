import "server-only";
import type { Wristband } from "@/lib/contract";
import type { Queryable } from "@/lib/db/db";

/** The mirror's pending_review wristbands, oldest first (the sync worker replaces them each cycle). */
export function pendingReviewWristbands(db: Queryable) {
  return db.query<{ ticket_code: string | null; updated_at: string; data: Wristband }>(
    "select ticket_code, updated_at, data from m_review_wristbands where status = 'pending_review' order by updated_at, id",
  );
}

/** After a `keep`, the pair leaves the queue at once (the next sync cycle confirms it). */
export async function forgetReviewPair(db: Queryable, ticketCode: string | null, keptId: string) {
  if (ticketCode) await db.query("delete from m_review_wristbands where ticket_code = $1", [ticketCode]);
  else await db.query("delete from m_review_wristbands where id = $1", [keptId]);
}
