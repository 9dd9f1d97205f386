import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { ReviewPair, ReviewView, Wristband } from "@/lib/shared/api/staff";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { auditedWrite } from "../http/audited-write";
import { eventFormat } from "../store/event-settings";
import { forgetReviewPair, pendingReviewWristbands } from "../store/review-queue";
import type { RequestOptions } from "../upstream/client";

export { forgetReviewPair };

/** The mirror's pending_review wristbands, grouped by the ticket they compete for, oldest first. */
export async function reviewPairs(db: Queryable): Promise<ReviewPair[]> {
  const groups = new Map<string, ReviewPair>();
  for (const row of await pendingReviewWristbands(db)) {
    const w = row.data;
    const key = row.ticket_code ?? `wristband:${w.id}`;
    const group = groups.get(key) ?? {
      ticket_code: row.ticket_code,
      attendee: null,
      since: row.updated_at,
      members: [],
    };
    group.members.push(w);
    group.attendee ??= w.attendee.name;
    if (row.updated_at < group.since) group.since = row.updated_at;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a.since.localeCompare(b.since));
}

/** The review queue screen: the pairs, in the event's currency and zone. */
export async function reviewQueue(dashboard: Dashboard): Promise<ReviewView> {
  const now = dashboard.clock();
  const { currency, timeZone } = await eventFormat(dashboard.db);
  return { pairs: await reviewPairs(dashboard.db), currency, timeZone, refreshedAt: now.toISOString() };
}

/** "Keep this one": the wristband becomes active, the others blocked, their balances move to it. */
export async function keepWristband(
  dashboard: Dashboard,
  user: SessionUser,
  code: string,
  idempotencyKey: string,
): Promise<Wristband> {
  const wristband = await auditedWrite(
    dashboard.db,
    {
      user,
      action: "review.keep",
      target: code,
      idempotencyKey,
      summarize: (w: Wristband) => ({
        balance: w.balance,
        promo_balance: w.promo_balance,
        ticket: w.ticket?.code ?? null,
      }),
    },
    (opts: RequestOptions) => dashboard.upstream.reviewWristband(code, { decision: "keep" }, opts),
  );
  await forgetReviewPair(dashboard.db, wristband.ticket?.code ?? null, wristband.id);
  return wristband;
}
