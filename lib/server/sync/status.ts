import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { DayTotals } from "./mirror";
import { type SyncResource, syncResources } from "./sync-worker";

/** One mirrored resource's sync health. */
export interface SyncResourceStatus {
  resource: SyncResource;
  lastSuccessAt: string | null;
  lastAttemptAt: string | null;
  /** Seconds since the last success, now (null: never succeeded). */
  secondsSinceSuccess: number | null;
  /**
   * At the last success: tails (sales, topups, scans) — seconds between then and the newest
   * mirrored `created_at`; other resources — 0.
   */
  lagSeconds: number | null;
  requestsUsed: number;
  recordsSynced: number;
  lastCycleRequests: number;
  lastCycleRecords: number;
  cursor: string | null;
  watermark: string | null;
  /** The latest error, even if a success followed it (compare `at` with lastSuccessAt). */
  lastError: { message: string; code: string | null; requestId: string | null; at: string | null } | null;
  /** The last attempt failed. */
  failing: boolean;
}

export interface SyncDayCheck {
  dayId: string;
  name: string | null;
  date: string | null;
  checkedAt: string;
  matched: boolean;
  upstream: DayTotals & { generated_at: string };
  mirror: DayTotals;
  rewalks: number;
  lastRewalkAt: string | null;
}

export interface SyncStatus {
  /** The instance running the worker (null: no worker ever ran on this store). */
  worker: {
    instance: string;
    startedAt: string;
    heartbeatAt: string;
    intervalMs: number;
    cycles: number;
    lastCycleStartedAt: string | null;
    lastCycleFinishedAt: string | null;
    lastCycleMs: number | null;
    lastCycleRequests: number | null;
    pausedUntil: string | null;
    /** No heartbeat for 3 intervals + 1 minute. */
    stale: boolean;
  } | null;
  /** The read bucket's x-ratelimit-* as the worker last saw them, and the share it leaves to screens. */
  quota: { limit: number; remaining: number; resetAt: string; observedAt: string } | null;
  resources: SyncResourceStatus[];
  days: SyncDayCheck[];
  /** Latest upstream errors, newest first. */
  errors: {
    at: string;
    resource: string;
    status: number | null;
    code: string | null;
    message: string;
    requestId: string | null;
  }[];
  /** The worker is alive, every resource's last attempt succeeded, every checked day matches. */
  healthy: boolean;
}

const iso = (v: unknown): string | null => (v == null ? null : new Date(v as string | Date).toISOString());
const num = (v: unknown): number | null => (v == null ? null : Number(v));
const json = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

/** Everything a screen shows about the sync, read from the store (any instance can call it). */
export async function syncStatus(
  db: Queryable,
  options: { now?: Date; errorLimit?: number } = {},
): Promise<SyncStatus> {
  const now = (options.now ?? new Date()).getTime();
  const [w] = await db.query<Record<string, unknown>>("select * from sync_worker where id = 1");
  const states = await db.query<Record<string, unknown>>("select * from sync_state");
  const checks = await db.query<Record<string, unknown>>(
    `select c.*, d.name, d.date from sync_day_checks c left join m_days d on d.id = c.day_id
     order by d.starts_at nulls last, c.day_id`,
  );
  const errors = await db.query<Record<string, unknown>>(
    "select * from sync_errors order by id desc limit $1",
    [options.errorLimit ?? 20],
  );

  const worker: SyncStatus["worker"] = w
    ? {
        instance: String(w.instance),
        startedAt: iso(w.started_at)!,
        heartbeatAt: iso(w.heartbeat_at)!,
        intervalMs: Number(w.interval_ms),
        cycles: Number(w.cycles),
        lastCycleStartedAt: iso(w.last_cycle_started_at),
        lastCycleFinishedAt: iso(w.last_cycle_finished_at),
        lastCycleMs: num(w.last_cycle_ms),
        lastCycleRequests: num(w.last_cycle_requests),
        pausedUntil: iso(w.paused_until),
        stale: now - new Date(w.heartbeat_at as string).getTime() > 3 * Number(w.interval_ms) + 60_000,
      }
    : null;
  const quota: SyncStatus["quota"] =
    w && w.quota_limit != null
      ? {
          limit: Number(w.quota_limit),
          remaining: Number(w.quota_remaining),
          resetAt: iso(w.quota_reset_at)!,
          observedAt: iso(w.quota_observed_at)!,
        }
      : null;

  const byName = new Map(states.map((s) => [String(s.resource), s]));
  const resources = syncResources.map((resource): SyncResourceStatus => {
    const s = byName.get(resource);
    const lastSuccessAt = iso(s?.last_success_at);
    const lastAttemptAt = iso(s?.last_attempt_at);
    const lastErrorAt = iso(s?.last_error_at);
    return {
      resource,
      lastSuccessAt,
      lastAttemptAt,
      secondsSinceSuccess: lastSuccessAt ? Math.max(0, (now - Date.parse(lastSuccessAt)) / 1000) : null,
      lagSeconds: num(s?.lag_seconds),
      requestsUsed: Number(s?.requests_used ?? 0),
      recordsSynced: Number(s?.records_synced ?? 0),
      lastCycleRequests: Number(s?.last_cycle_requests ?? 0),
      lastCycleRecords: Number(s?.last_cycle_records ?? 0),
      cursor: (s?.cursor as string | null) ?? null,
      watermark: iso(s?.watermark),
      lastError: s?.last_error
        ? {
            message: String(s.last_error),
            code: (s.last_error_code as string | null) ?? null,
            requestId: (s.last_error_request_id as string | null) ?? null,
            at: lastErrorAt,
          }
        : null,
      failing: lastAttemptAt !== null && lastAttemptAt !== lastSuccessAt,
    };
  });

  const days = checks.map(
    (c): SyncDayCheck => ({
      dayId: String(c.day_id),
      name: (c.name as string | null) ?? null,
      date: (c.date as string | null) ?? null,
      checkedAt: iso(c.checked_at)!,
      matched: Boolean(c.matched),
      upstream: json(c.upstream),
      mirror: json(c.mirror),
      rewalks: Number(c.rewalks),
      lastRewalkAt: iso(c.last_rewalk_at),
    }),
  );

  return {
    worker,
    quota,
    resources,
    days,
    errors: errors.map((e) => ({
      at: iso(e.at)!,
      resource: String(e.resource),
      status: num(e.status),
      code: (e.code as string | null) ?? null,
      message: String(e.message),
      requestId: (e.request_id as string | null) ?? null,
    })),
    healthy:
      worker !== null &&
      !worker.stale &&
      resources.every((r) => r.lastSuccessAt !== null && !r.failing) &&
      days.every((d) => d.matched),
  };
}
