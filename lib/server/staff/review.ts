import "server-only";
import type { Wristband } from "@/lib/contract";
import type { Queryable } from "@/lib/db/db";

export interface ReviewPair {
  ticket_code: string | null;
  attendee: string | null;
  /** The earliest time one of its wristbands went to review. */
  since: string;
  members: Wristband[];
}

/** The mirror's pending_review wristbands, grouped by the ticket they compete for, oldest first. */
export async function reviewPairs(db: Queryable): Promise<ReviewPair[]> {
  const rows = await db.query<{
    ticket_code: string | null;
    updated_at: Date | string;
    data: Wristband | string;
  }>(
    "select ticket_code, updated_at, data from m_review_wristbands where status = 'pending_review' order by updated_at, id",
  );
  const groups = new Map<string, ReviewPair>();
  for (const row of rows) {
    const w = (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as Wristband;
    const key = row.ticket_code ?? `wristband:${w.id}`;
    const at = new Date(row.updated_at).toISOString();
    const group = groups.get(key) ?? { ticket_code: row.ticket_code, attendee: null, since: at, members: [] };
    group.members.push(w);
    group.attendee ??= w.attendee.name;
    if (at < group.since) group.since = at;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a.since.localeCompare(b.since));
}

/** After a `keep`, the pair leaves the queue at once (the next sync cycle confirms it). */
export async function forgetReviewPair(db: Queryable, ticketCode: string | null, keptId: string) {
  if (ticketCode) await db.query("delete from m_review_wristbands where ticket_code = $1", [ticketCode]);
  else await db.query("delete from m_review_wristbands where id = $1", [keptId]);
}
