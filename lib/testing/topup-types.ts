import type { Topup } from "@/lib/contract";

/** One row of paid top-ups by day and ticket type ('' = no ticket known), as a_topups_ticket_type holds it. */
export interface TopupTypeRow {
  day_id: string;
  ticket_type_id: string;
  count: number;
  amount: number;
}

/**
 * What a_topups_ticket_type must hold, recomputed by a test from records it knows: the completed
 * paid top-ups grouped by day and by the ticket type `typeOf` gives their wristband, in the table's
 * order (day, then type).
 */
export function paidTopupsByType(
  topups: Iterable<Topup>,
  typeOf: (wristbandId: string) => string,
): TopupTypeRow[] {
  const groups = new Map<string, TopupTypeRow>();
  for (const t of topups) {
    if (t.status !== "completed" || t.direction !== "topup" || t.nature !== "paid") continue;
    const type = typeOf(t.wristband_id);
    const key = `${t.day_id}|${type}`;
    const g = groups.get(key) ?? { day_id: t.day_id, ticket_type_id: type, count: 0, amount: 0 };
    g.count++;
    g.amount += t.amount;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) =>
    a.day_id !== b.day_id ? (a.day_id < b.day_id ? -1 : 1) : a.ticket_type_id < b.ticket_type_id ? -1 : 1,
  );
}
