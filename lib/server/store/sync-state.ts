import "server-only";
import type { Queryable } from "@/lib/db/db";
import { iso, isoOrNull, numOrNull } from "@/lib/db/rows";
import type { DayTotals, SyncDayCheck, SyncResourceStatus, SyncStatus } from "@/lib/shared/api/sync";

/**
 * The sync worker's bookkeeping (migrations 001, 002, 005): per-resource progress and outcome
 * (`sync_state`), the worker's heartbeat (`sync_worker`), the latest upstream errors (`sync_errors`),
 * per-day checksums (`sync_day_checks`) and "re-sync this night" requests (`sync_requests`).
 */

// ── progress of the incremental walks ────────────────────────────────────────────────────────

/** Where a resource's walk stands: the last id walked, and the newest instant mirrored. */
export interface SyncCursor {
  cursor: string | null;
  watermark: string | null;
}

export async function readSyncCursor(db: Queryable, resource: string): Promise<SyncCursor> {
  const [row] = await db.query<{ cursor: string | null; watermark: string | null }>(
    "select cursor, watermark from sync_state where resource = $1",
    [resource],
  );
  return { cursor: row?.cursor ?? null, watermark: row?.watermark ?? null };
}

/** Moves a tail's cursor and watermark forward (never back); run it in the page's transaction. */
export async function advanceCursor(
  tx: Queryable,
  resource: string,
  cursor: string,
  watermark: string | null,
): Promise<void> {
  await tx.query(
    `insert into sync_state (resource, cursor, watermark) values ($1, $2, $3)
     on conflict (resource) do update set cursor = greatest(sync_state.cursor, excluded.cursor),
       watermark = greatest(sync_state.watermark, excluded.watermark)`,
    [resource, cursor, watermark],
  );
}

/** Moves a resource's watermark forward (never back); run it in the page's transaction. */
export async function advanceWatermark(tx: Queryable, resource: string, watermark: string): Promise<void> {
  await tx.query(
    `insert into sync_state (resource, watermark) values ($1, $2)
     on conflict (resource) do update set watermark = greatest(sync_state.watermark, excluded.watermark)`,
    [resource, watermark],
  );
}

/** Forgets a tail's cursor: the next pages set it again from what they walk. */
export async function clearCursor(db: Queryable, resource: string): Promise<void> {
  await db.query("update sync_state set cursor = null where resource = $1", [resource]);
}

// ── outcomes and errors ──────────────────────────────────────────────────────────────────────

export interface ResourceOutcome {
  resource: string;
  at: Date;
  ok: boolean;
  /** Kept from the previous success when null. */
  lagSeconds: number | null;
  requests: number;
  records: number;
}

/** One resource's run: attempt (and success) instant, lag, and its requests and records added up. */
export async function saveResourceOutcome(db: Queryable, o: ResourceOutcome): Promise<void> {
  const at = o.at.toISOString();
  await db.query(
    `insert into sync_state (resource, last_attempt_at, last_success_at, lag_seconds, requests_used,
       records_synced, last_cycle_requests, last_cycle_records)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (resource) do update set last_attempt_at = excluded.last_attempt_at,
       last_success_at = coalesce(excluded.last_success_at, sync_state.last_success_at),
       lag_seconds = coalesce(excluded.lag_seconds, sync_state.lag_seconds),
       requests_used = sync_state.requests_used + excluded.requests_used,
       records_synced = sync_state.records_synced + excluded.records_synced,
       last_cycle_requests = excluded.last_cycle_requests,
       last_cycle_records = excluded.last_cycle_records`,
    [o.resource, at, o.ok ? at : null, o.lagSeconds, o.requests, o.records, o.requests, o.records],
  );
}

/**
 * Records of `resource` stored outside its own run (a day's re-walk, run by the checksum): added
 * to the resource's total, so that its count covers every record it mirrored.
 */
export async function addRecordsSynced(db: Queryable, resource: string, records: number): Promise<void> {
  if (records === 0) return;
  await db.query(
    `insert into sync_state (resource, records_synced) values ($1, $2)
     on conflict (resource) do update set records_synced = sync_state.records_synced + excluded.records_synced`,
    [resource, records],
  );
}

/** An upstream error as the worker keeps it. */
export interface SyncErrorFields {
  status: number | null;
  code: string;
  message: string;
  request_id: string | null;
}

/** Keeps an error in `sync_state.last_error*` and in `sync_errors` (the latest 200). */
export async function recordSyncError(
  db: Queryable,
  resource: string,
  at: Date,
  e: SyncErrorFields,
): Promise<void> {
  await db.query(
    `insert into sync_state (resource, last_error, last_error_code, last_error_request_id, last_error_at)
     values ($1, $2, $3, $4, $5)
     on conflict (resource) do update set last_error = excluded.last_error,
       last_error_code = excluded.last_error_code, last_error_request_id = excluded.last_error_request_id,
       last_error_at = excluded.last_error_at`,
    [resource, e.message, e.code, e.request_id, at.toISOString()],
  );
  await db.query(
    "insert into sync_errors (at, resource, status, code, message, request_id) values ($1, $2, $3, $4, $5, $6)",
    [at.toISOString(), resource, e.status, e.code, e.message, e.request_id],
  );
  await db.query(
    "delete from sync_errors where id not in (select id from sync_errors order by id desc limit 200)",
  );
}

// ── the worker's heartbeat ───────────────────────────────────────────────────────────────────

export interface Heartbeat {
  instance: string;
  startedAt: Date;
  at: Date;
  intervalMs: number;
  /** Set when a cycle starts. */
  cycleStartedAt?: Date;
  /** Set when a cycle completes (counts one more cycle). */
  cycleFinishedAt?: Date;
  cycleMs?: number;
  cycleRequests: number;
  pausedUntil: Date | null;
  quota: { limit: number; remaining: number; resetAt: Date; observedAt: Date } | null;
}

export async function saveHeartbeat(db: Queryable, h: Heartbeat): Promise<void> {
  await db.query(
    `insert into sync_worker (id, instance, started_at, heartbeat_at, interval_ms, cycles,
       last_cycle_started_at, last_cycle_finished_at, last_cycle_ms, last_cycle_requests, paused_until,
       quota_limit, quota_remaining, quota_reset_at, quota_observed_at)
     values (1, $1, $2, $3, $4, 0, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     on conflict (id) do update set instance = excluded.instance, started_at = excluded.started_at,
       heartbeat_at = excluded.heartbeat_at, interval_ms = excluded.interval_ms,
       cycles = sync_worker.cycles + (case when $6::timestamptz is null then 0 else 1 end),
       last_cycle_started_at = coalesce(excluded.last_cycle_started_at, sync_worker.last_cycle_started_at),
       last_cycle_finished_at = coalesce(excluded.last_cycle_finished_at, sync_worker.last_cycle_finished_at),
       last_cycle_ms = coalesce(excluded.last_cycle_ms, sync_worker.last_cycle_ms),
       last_cycle_requests = excluded.last_cycle_requests,
       paused_until = excluded.paused_until, quota_limit = excluded.quota_limit,
       quota_remaining = excluded.quota_remaining, quota_reset_at = excluded.quota_reset_at,
       quota_observed_at = excluded.quota_observed_at`,
    [
      h.instance,
      h.startedAt.toISOString(),
      h.at.toISOString(),
      h.intervalMs,
      h.cycleStartedAt?.toISOString() ?? null,
      h.cycleFinishedAt?.toISOString() ?? null,
      h.cycleMs ?? null,
      h.cycleRequests,
      h.pausedUntil?.toISOString() ?? null,
      h.quota?.limit ?? null,
      h.quota?.remaining ?? null,
      h.quota?.resetAt.toISOString() ?? null,
      h.quota?.observedAt.toISOString() ?? null,
    ],
  );
}

// ── per-day checksums ────────────────────────────────────────────────────────────────────────

export interface DayCheckInput {
  dayId: string;
  at: Date;
  matched: boolean;
  upstream: DayTotals & { generated_at: string };
  mirror: DayTotals;
  /** The day was re-walked for this check (counts one more re-walk). */
  rewalked: boolean;
}

export async function saveDayCheck(db: Queryable, c: DayCheckInput): Promise<void> {
  const at = c.at.toISOString();
  await db.query(
    `insert into sync_day_checks (day_id, checked_at, matched, upstream, mirror, rewalks, last_rewalk_at)
     values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7)
     on conflict (day_id) do update set checked_at = excluded.checked_at, matched = excluded.matched,
       upstream = excluded.upstream, mirror = excluded.mirror,
       rewalks = sync_day_checks.rewalks + excluded.rewalks,
       last_rewalk_at = coalesce(excluded.last_rewalk_at, sync_day_checks.last_rewalk_at)`,
    [
      c.dayId,
      at,
      c.matched,
      JSON.stringify(c.upstream),
      JSON.stringify(c.mirror),
      c.rewalked ? 1 : 0,
      c.rewalked ? at : null,
    ],
  );
}

interface DayCheckRow {
  day_id: string;
  name: string | null;
  date: string | null;
  checked_at: string;
  matched: boolean;
  upstream: SyncDayCheck["upstream"];
  mirror: DayTotals;
  rewalks: number;
  last_rewalk_at: string | null;
}

const dayCheckSelect = `select c.*, d.name, d.date from sync_day_checks c left join m_days d on d.id = c.day_id`;

const dayCheckFrom = (c: DayCheckRow): SyncDayCheck => ({
  dayId: c.day_id,
  name: c.name ?? null,
  date: c.date ?? null,
  checkedAt: iso(c.checked_at),
  matched: Boolean(c.matched),
  upstream: c.upstream,
  mirror: c.mirror,
  rewalks: Number(c.rewalks),
  lastRewalkAt: isoOrNull(c.last_rewalk_at),
});

/** Every day's latest checksum, in day order. */
export async function dayChecks(db: Queryable): Promise<SyncDayCheck[]> {
  const rows = await db.query<DayCheckRow>(`${dayCheckSelect} order by d.starts_at nulls last, c.day_id`);
  return rows.map(dayCheckFrom);
}

/** One day's latest checksum (null: never checked). */
export async function dayCheck(db: Queryable, dayId: string): Promise<SyncDayCheck | null> {
  const [row] = await db.query<DayCheckRow>(`${dayCheckSelect} where c.day_id = $1`, [dayId]);
  return row ? dayCheckFrom(row) : null;
}

// ── "re-sync this night" requests ────────────────────────────────────────────────────────────

/** Days with a request not handled yet, in id order. */
export async function pendingResyncDays(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ day_id: string }>(
    "select distinct day_id from sync_requests where handled_at is null order by day_id",
  );
  return rows.map((r) => r.day_id);
}

/** When the oldest request for the day not handled yet was made (null: none). */
export async function pendingResyncSince(db: Queryable, dayId: string): Promise<string | null> {
  const [row] = await db.query<{ at: string | null }>(
    "select min(requested_at) as at from sync_requests where day_id = $1 and handled_at is null",
    [dayId],
  );
  return isoOrNull(row?.at);
}

/** Records a request to re-walk the day; returns its `requested_at`. */
export async function insertResyncRequest(
  db: Queryable,
  dayId: string,
  username: string,
  at: Date,
): Promise<string> {
  await db.query("insert into sync_requests (day_id, requested_at, requested_by) values ($1, $2, $3)", [
    dayId,
    at.toISOString(),
    username,
  ]);
  return at.toISOString();
}

/** Marks every pending request for the day handled. */
export async function markResyncHandled(db: Queryable, dayId: string, at: Date): Promise<void> {
  await db.query("update sync_requests set handled_at = $2 where day_id = $1 and handled_at is null", [
    dayId,
    at.toISOString(),
  ]);
}

// ── reads for the status view ────────────────────────────────────────────────────────────────

type WorkerState = Omit<NonNullable<SyncStatus["worker"]>, "stale">;

interface WorkerRow {
  instance: string;
  started_at: string;
  heartbeat_at: string;
  interval_ms: number;
  cycles: number;
  last_cycle_started_at: string | null;
  last_cycle_finished_at: string | null;
  last_cycle_ms: number | null;
  last_cycle_requests: number | null;
  paused_until: string | null;
  quota_limit: number | null;
  quota_remaining: number | null;
  quota_reset_at: string;
  quota_observed_at: string;
}

/** The worker's last heartbeat and the read quota it last saw (null: no worker ever ran here). */
export async function readSyncWorker(
  db: Queryable,
): Promise<{ worker: WorkerState; quota: SyncStatus["quota"] } | null> {
  const [w] = await db.query<WorkerRow>("select * from sync_worker where id = 1");
  if (!w) return null;
  return {
    worker: {
      instance: String(w.instance),
      startedAt: iso(w.started_at),
      heartbeatAt: iso(w.heartbeat_at),
      intervalMs: Number(w.interval_ms),
      cycles: Number(w.cycles),
      lastCycleStartedAt: isoOrNull(w.last_cycle_started_at),
      lastCycleFinishedAt: isoOrNull(w.last_cycle_finished_at),
      lastCycleMs: numOrNull(w.last_cycle_ms),
      lastCycleRequests: numOrNull(w.last_cycle_requests),
      pausedUntil: isoOrNull(w.paused_until),
    },
    quota:
      w.quota_limit != null
        ? {
            limit: Number(w.quota_limit),
            remaining: Number(w.quota_remaining),
            resetAt: iso(w.quota_reset_at),
            observedAt: iso(w.quota_observed_at),
          }
        : null,
  };
}

/** A resource's stored state: its status without what depends on now. */
export type ResourceState = Omit<SyncResourceStatus, "secondsSinceSuccess" | "failing">;

interface StateRow {
  resource: string;
  cursor: string | null;
  watermark: string | null;
  last_success_at: string | null;
  last_attempt_at: string | null;
  lag_seconds: number | null;
  requests_used: number;
  records_synced: number;
  last_cycle_requests: number;
  last_cycle_records: number;
  last_error: string | null;
  last_error_code: string | null;
  last_error_request_id: string | null;
  last_error_at: string | null;
}

/** Every resource's stored state, by resource. */
export async function readResourceStates(db: Queryable): Promise<Map<string, ResourceState>> {
  const rows = await db.query<StateRow>("select * from sync_state");
  return new Map(
    rows.map((s) => [
      s.resource,
      {
        resource: s.resource,
        lastSuccessAt: isoOrNull(s.last_success_at),
        lastAttemptAt: isoOrNull(s.last_attempt_at),
        lagSeconds: numOrNull(s.lag_seconds),
        requestsUsed: Number(s.requests_used ?? 0),
        recordsSynced: Number(s.records_synced ?? 0),
        lastCycleRequests: Number(s.last_cycle_requests ?? 0),
        lastCycleRecords: Number(s.last_cycle_records ?? 0),
        cursor: s.cursor ?? null,
        watermark: isoOrNull(s.watermark),
        lastError: s.last_error
          ? {
              message: String(s.last_error),
              code: s.last_error_code ?? null,
              requestId: s.last_error_request_id ?? null,
              at: isoOrNull(s.last_error_at),
            }
          : null,
      },
    ]),
  );
}

interface ErrorRow {
  at: string;
  resource: string;
  status: number | null;
  code: string | null;
  message: string;
  request_id: string | null;
}

/** The latest upstream errors, newest first. */
export async function latestSyncErrors(db: Queryable, limit: number): Promise<SyncStatus["errors"]> {
  const rows = await db.query<ErrorRow>("select * from sync_errors order by id desc limit $1", [limit]);
  return rows.map((e) => ({
    at: iso(e.at),
    resource: String(e.resource),
    status: numOrNull(e.status),
    code: e.code ?? null,
    message: String(e.message),
    requestId: e.request_id ?? null,
  }));
}
