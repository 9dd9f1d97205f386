import "server-only";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { type BudgetCounter, takeLookup } from "../store/lookup-budget";
import type { RequestOptions } from "../upstream/client";

/**
 * Fair use of the key's read quota by live lookups (search, ticket and wristband views, the ticket
 * list, the desk's quote, the connection check). Counted in the store per minute, so every
 * instance sharing it shares the budget:
 *
 * - each user: LOOKUP_BUDGET reads a minute;
 * - every lookup together: 40 % of the key's read limit a minute — the share the sync worker leaves
 *   them (it never spends the last 40 % of a window), so lookups cannot starve the worker;
 * - staff and supervisors together: 30 %, so managers always keep 10 % of the key to themselves.
 *
 * And no silent waits: a lookup never waits more than 2 s for the upstream (a longer `retry-after`
 * is answered at once, "busy, try again in N s").
 */
export const LOOKUP_RULES = {
  windowSeconds: 60,
  allShare: 0.4,
  staffShare: 0.3,
  maxWaitMs: 2000,
  /** The key's read limit before the upstream has told it (its default). */
  defaultReadLimit: 120,
} as const;

function counters(dashboard: Dashboard, user: SessionUser): BudgetCounter[] {
  const limit = dashboard.upstream.rateLimit("read")?.limit ?? LOOKUP_RULES.defaultReadLimit;
  const own = { subject: `user:${user.id}`, limit: dashboard.config.LOOKUP_BUDGET };
  const all = { subject: "pool:all", limit: Math.floor(limit * LOOKUP_RULES.allShare) };
  const staff = { subject: "pool:staff", limit: Math.floor(limit * LOOKUP_RULES.staffShare) };
  return user.role === "manager" ? [own, all] : [own, staff, all];
}

/** Counts one live upstream read of `user`, or refuses it with 429 and when to retry. */
export async function spendLookup(dashboard: Dashboard, user: SessionUser, now = new Date()): Promise<void> {
  const windowMs = LOOKUP_RULES.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const over = await takeLookup(dashboard.db, counters(dashboard, user), windowStart);
  if (!over) return;
  const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  throw new ConsoleError(
    "lookup_budget_exhausted",
    over.subject.startsWith("user:")
      ? `You have used your ${over.limit} live lookups of this minute: try again in ${retryAfter} s.`
      : `Live lookups are busy (the shared share of the cashless quota for this minute is used): try again in ${retryAfter} s.`,
    { retryAfter },
  );
}

/** Request options of a user's live lookup: every attempt counted in the budget, waits of at most 2 s. */
export function liveLookup(dashboard: Dashboard, user: SessionUser): RequestOptions {
  return {
    maxWaitMs: LOOKUP_RULES.maxWaitMs,
    beforeAttempt: (bucket) => (bucket === "read" ? spendLookup(dashboard, user) : undefined),
  };
}
