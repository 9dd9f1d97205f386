import "server-only";
import type { Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { LiveContext, LiveDay, MirrorFreshness } from "@/lib/shared/api/sales";
import { dayOf } from "@/lib/shared/format/time";
import { eventDays, eventSettings } from "../store/event-settings";
import { syncStatus } from "./status";

/**
 * What every live answer and the night reconciliation carry: the event, its days and how fresh the
 * mirror is (the sync's read side, which features may use; the worker itself they may not).
 */
export async function eventContext(db: Queryable, now: Date): Promise<LiveContext> {
  const [event, days, status] = await Promise.all([
    eventSettings(db),
    eventDays(db),
    syncStatus(db, { now, errorLimit: 1 }),
  ]);
  const sales = status.resources.find((r) => r.resource === "sales");
  const lastError = status.errors[0];
  return {
    event,
    days,
    as_of: sales?.lastSuccessAt ?? null,
    mirror: status.mirror,
    sync: {
      healthy: status.healthy,
      worker_stale: status.worker ? status.worker.stale : null,
      failing: status.resources.filter((r) => r.failing).map((r) => r.resource),
      last_error: lastError
        ? { message: lastError.message, request_id: lastError.requestId, at: lastError.at }
        : null,
      sales_lag_seconds: sales?.lagSeconds ?? null,
      days_mismatched: status.days.filter((d) => !d.matched).map((d) => d.dayId),
      pending: status.resources.filter((r) => r.lastSuccessAt === null).map((r) => r.resource),
    },
  };
}

/** The mirror's as-of and the sync's health, for an answer without the whole context. */
export async function mirrorFreshness(db: Queryable, now: Date): Promise<MirrorFreshness> {
  const ctx = await eventContext(db, now);
  return {
    as_of: ctx.as_of,
    sync: {
      worker_stale: ctx.sync.worker_stale,
      failing: ctx.sync.failing,
      paused_until: ctx.mirror.paused_until,
    },
  };
}

/** The day asked for (an unknown one is `invalid_parameter`), or the current event day. */
export function pickDay(ctx: Pick<LiveContext, "days">, dayId: string | null, now: Date): LiveDay | null {
  if (dayId) {
    const day = ctx.days.find((d) => d.id === dayId);
    if (!day) throw new ConsoleError("invalid_parameter", `Unknown day_id ${dayId}.`, { param: "day_id" });
    return day;
  }
  return dayOf(ctx.days, now);
}
