import "server-only";
import type { Queryable } from "@/lib/db/db";
import {
  dayChecks,
  latestSyncErrors,
  type ResourceState,
  readResourceStates,
  readSyncWorker,
} from "@/lib/server/store/sync-state";
import type { SyncResourceStatus, SyncStatus } from "@/lib/shared/api/sync";
import { syncResources } from "./context";
import { mirrorProgress } from "./progress";

/** A resource the worker never ran. */
const neverRun = (resource: string): ResourceState => ({
  resource,
  lastSuccessAt: null,
  lastAttemptAt: null,
  lagSeconds: null,
  requestsUsed: 0,
  recordsSynced: 0,
  lastCycleRequests: 0,
  lastCycleRecords: 0,
  cursor: null,
  watermark: null,
  lastError: null,
});

/** Everything a screen shows about the sync, read from the store (any instance can call it). */
export async function syncStatus(
  db: Queryable,
  options: { now: Date; errorLimit?: number },
): Promise<SyncStatus> {
  const now = options.now.getTime();
  const heartbeat = await readSyncWorker(db);
  const states = await readResourceStates(db);
  const days = await dayChecks(db);
  const errors = await latestSyncErrors(db, options.errorLimit ?? 20);

  const worker: SyncStatus["worker"] = heartbeat
    ? {
        ...heartbeat.worker,
        stale: now - Date.parse(heartbeat.worker.heartbeatAt) > 3 * heartbeat.worker.intervalMs + 60_000,
      }
    : null;
  const resources = syncResources.map((resource): SyncResourceStatus => {
    const s = states.get(resource) ?? neverRun(resource);
    return {
      ...s,
      secondsSinceSuccess: s.lastSuccessAt ? Math.max(0, (now - Date.parse(s.lastSuccessAt)) / 1000) : null,
      failing: s.lastAttemptAt !== null && s.lastAttemptAt !== s.lastSuccessAt,
    };
  });

  const mirror = await mirrorProgress(db, {
    checks: days,
    quotaLimit: heartbeat?.quota?.limit ?? null,
    pausedUntil: heartbeat?.worker.pausedUntil ?? null,
    now,
  });
  return {
    worker,
    mirror,
    quota: heartbeat?.quota ?? null,
    resources,
    days,
    errors,
    healthy:
      worker !== null &&
      !worker.stale &&
      resources.every((r) => r.lastSuccessAt !== null && !r.failing) &&
      days.every((d) => d.matched),
  };
}
