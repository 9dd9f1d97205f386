import "server-only";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { type LookupCount, takeLookup } from "../store/lookup-budget";
import type { RequestOptions } from "../upstream/client";

/**
 * Fair use of the key's read quota by live lookups (search, ticket and wristband views, the ticket
 * list, the desk's quote, the connection check). Counted in the store per minute, so every
 * instance sharing it shares the budget, with one atomic upsert per lookup:
 *
 * - every lookup together: 40 % of the key's read limit a minute (the pool) — the share the sync
 *   worker leaves them (it never spends the last 40 % of a window), so lookups cannot starve it;
 * - each user: at most LOOKUP_BUDGET a minute;
 * - the first half of the pool is first come, first served; once it is used, a user goes on only
 *   below their fair share, pool ÷ (active users + 1), where the active users are those who looked
 *   something up this minute or the one before (the asking user included; the "+ 1" keeps a share
 *   free for someone who has not asked yet). So one account hammering takes at most half the pool,
 *   and a supervisor and the desk's bonus quote keep working while it does.
 *
 * And no silent waits: a lookup never waits more than 2 s for the upstream (a longer `retry-after`
 * is answered at once, "busy, try again in N s").
 */
export const LOOKUP_RULES = {
  windowSeconds: 60,
  poolShare: 0.4,
  maxWaitMs: 2000,
  /** The key's read limit before the upstream has told it (its default). */
  defaultReadLimit: 120,
} as const;

/** The lookups' pool a minute: 40 % of the key's read limit as the upstream last reported it. */
export function lookupPool(dashboard: Dashboard): number {
  const limit = dashboard.upstream.rateLimit("read")?.limit ?? LOOKUP_RULES.defaultReadLimit;
  return Math.max(1, Math.floor(limit * LOOKUP_RULES.poolShare));
}

function refusal(count: LookupCount, pool: number, perUser: number, retryAfter: number): ConsoleError {
  const message =
    count.used >= pool
      ? `Live lookups are busy (the share of the cashless quota they may use this minute is used up): try again in ${retryAfter} s.`
      : count.mine >= perUser
        ? `You have used your ${perUser} live lookups of this minute: try again in ${retryAfter} s.`
        : count.active === 1
          ? `You have used half of this minute's live lookups (${count.mine}), the most one person may take: try again in ${retryAfter} s.`
          : `Live lookups are shared by ${count.active} people this minute and you have used your share (${count.fair}): try again in ${retryAfter} s.`;
  return new ConsoleError("lookup_budget_exhausted", message, { retryAfter });
}

/** Counts one live upstream read of `user`, or refuses it with 429 and when to retry. */
export async function spendLookup(dashboard: Dashboard, user: SessionUser): Promise<void> {
  const now = dashboard.clock();
  const windowMs = LOOKUP_RULES.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const pool = lookupPool(dashboard);
  const perUser = dashboard.config.LOOKUP_BUDGET;
  const count = await takeLookup(
    dashboard.db,
    user.id,
    { pool, perUser },
    windowStart,
    new Date(windowStart.getTime() - windowMs),
  );
  if (count.taken) return;
  const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  throw refusal(count, pool, perUser, retryAfter);
}

/** Request options of a user's live lookup: every attempt counted in the budget, waits of at most 2 s. */
export function liveLookup(dashboard: Dashboard, user: SessionUser): RequestOptions {
  return {
    maxWaitMs: LOOKUP_RULES.maxWaitMs,
    beforeAttempt: (bucket) => (bucket === "read" ? spendLookup(dashboard, user) : undefined),
  };
}
