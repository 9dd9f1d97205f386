import "server-only";
import type { Queryable } from "@/lib/db/db";

/** A counter of live upstream lookups in a fixed window, and the most it may reach. */
export interface BudgetCounter {
  subject: string;
  limit: number;
}

/**
 * Counts one lookup against each counter in order, each with one atomic upsert (parallel lookups
 * each get their own count): the first counter (the user's own) always counts; the next ones only
 * while the earlier ones were within their limits, so a user over their own budget does not use up
 * the shared pools. A counter whose window is not `windowStart` starts over. Answers the first
 * counter that went over its limit, or null.
 */
export async function takeLookup(
  db: Queryable,
  counters: BudgetCounter[],
  windowStart: Date,
): Promise<BudgetCounter | null> {
  for (const counter of counters) {
    const [row] = await db.query<{ used: number }>(
      `insert into lookup_budget as b (subject, window_start, used) values ($1, $2, 1)
       on conflict (subject) do update set
         used = case when b.window_start = excluded.window_start then b.used + 1 else 1 end,
         window_start = excluded.window_start
       returning used`,
      [counter.subject, windowStart],
    );
    if (row!.used > counter.limit) return counter;
  }
  return null;
}
