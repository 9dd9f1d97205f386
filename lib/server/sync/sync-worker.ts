import "server-only";
import { hostname } from "node:os";
import type { Checkin, SalesSummary, Topup, Transaction } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import {
  ApiError,
  defaultSleep,
  type RequestOptions,
  type Sleep,
  type UpstreamClient,
} from "@/lib/server/upstream/client";
import {
  type DayTotals,
  deleteDayRecordsNotIn,
  flowsEqual,
  mirrorDayTotals,
  replaceDays,
  replaceReviewWristbands,
  replaceTicketTypes,
  replaceZones,
  salesEqual,
  saveEvent,
  summaryTotals,
  type TailResource,
  tailTables,
  upsertSales,
  upsertTail,
  upsertTickets,
  upsertTopups,
} from "./mirror";

/** Every resource the worker keeps a `sync_state` row for, in cycle order. */
export const syncResources = [
  "event",
  "days",
  "zones",
  "ticket_types",
  "tickets",
  "review_wristbands",
  "sales",
  "topups",
  "scans",
  "checksum",
] as const;
export type SyncResource = (typeof syncResources)[number];

export type SyncLogger = Pick<Console, "info" | "warn" | "error">;

export interface SyncWorkerOptions {
  db: Db;
  client: UpstreamClient;
  /** Pause between the end of one cycle and the start of the next. */
  intervalMs: number;
  log: SyncLogger;
  /** Must be the same clock as the client's (rate-limit reset instants are compared with it). */
  now?: () => Date;
  sleep?: Sleep;
  /** Share of the read quota of each window the worker never spends (default 0.4). */
  reserveFraction?: number;
  /** Overlap of `updated_since` / `since` windows (default 10 min). */
  overlapMs?: number;
  /** `limit` of every list request (default 200, the maximum). */
  pageSize?: number;
  /** Event, days, zones and ticket types are refreshed at most this often (default 5 min). */
  catalogRefreshMs?: number;
  /** Written to `sync_worker.instance` (default host:pid). */
  instance?: string;
  /** A day still different right after a re-walk is not re-walked again before this (default 10 min). */
  rewalkBackoffMs?: number;
}

export interface ResourceReport {
  ok: boolean;
  requests: number;
  records: number;
  error?: { status: number | null; code: string; message: string; request_id: string | null };
}

export interface CycleReport {
  startedAt: Date;
  finishedAt: Date;
  /** Upstream requests made by this cycle (every attempt, retries included). */
  requests: number;
  resources: Partial<Record<SyncResource, ResourceReport>>;
  /** Days whose records were re-walked because the checksum differed. */
  rewalkedDays: string[];
  /** Days whose mirror equals the sales summary at the end of the cycle. */
  matchedDays: string[];
  /** True when stop() interrupted the cycle. */
  aborted: boolean;
}

const tailPaths = { sales: "/transactions", topups: "/topups", scans: "/checkins" } as const;

class Tracker {
  requests = 0;
  records = 0;
  error: unknown = null;
  lagSeconds: number | null = null;
}

const errorFields = (err: unknown): NonNullable<ResourceReport["error"]> =>
  err instanceof ApiError
    ? { status: err.status, code: err.code, message: err.message, request_id: err.request_id }
    : {
        status: null,
        code: "internal",
        message: err instanceof Error ? err.message : String(err),
        request_id: null,
      };

/**
 * Mirrors the upstream event into the dashboard store, cheaply and exactly:
 * - catalog (event, days, zones, ticket types): full refresh, every `catalogRefreshMs`;
 * - tickets: `updated_since` = newest mirrored `updated_at` − overlap, upsert by id;
 * - review queue: `GET /wristbands?status=pending_review`, replacing the set;
 * - sales, top-ups, scans: tail by cursor (`starting_after` = last mirrored id); when a cursor is
 *   refused (400), `since` = newest mirrored `occurred_at` − overlap; upsert by id;
 * - per-day checksum against `GET /reports/sales-summary?day_id=`: a day that still differs after a
 *   catch-up is re-walked by `day_id` (upsert, and delete what upstream no longer lists), which is
 *   what catches late records whose id fell below the cursor.
 * It never spends the last `reserveFraction` of the read quota's window: it pauses until the reset.
 */
export class SyncWorker {
  private readonly db: Db;
  private readonly client: UpstreamClient;
  private readonly intervalMs: number;
  private readonly log: SyncLogger;
  private readonly now: () => Date;
  private readonly sleep: Sleep;
  private readonly reserveFraction: number;
  private readonly overlapMs: number;
  private readonly pageSize: number;
  private readonly catalogRefreshMs: number;
  private readonly instance: string;
  private controller = new AbortController();
  private running: Promise<CycleReport> | null = null;
  private loop: Promise<void> | null = null;
  private catalogAt = 0;
  private startedAt: Date | null = null;
  private cycleRequests = 0;
  private pausedUntil: Date | null = null;
  private readonly rewalkBackoffMs: number;
  /** Days a re-walk did not reconcile, and when that was. */
  private readonly unresolved = new Map<string, number>();

  constructor(options: SyncWorkerOptions) {
    this.db = options.db;
    this.client = options.client;
    this.intervalMs = options.intervalMs;
    this.log = options.log;
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? defaultSleep;
    this.reserveFraction = options.reserveFraction ?? 0.4;
    this.overlapMs = options.overlapMs ?? 10 * 60_000;
    this.pageSize = options.pageSize ?? 200;
    this.catalogRefreshMs = options.catalogRefreshMs ?? 5 * 60_000;
    this.instance = options.instance ?? `${hostname()}:${process.pid}`;
    this.rewalkBackoffMs = options.rewalkBackoffMs ?? 10 * 60_000;
  }

  get isRunning(): boolean {
    return this.loop !== null;
  }

  /** Runs cycles every `intervalMs` until stop(). */
  start(): void {
    if (this.loop) return;
    this.controller = new AbortController();
    const signal = this.controller.signal;
    this.loop = (async () => {
      while (!signal.aborted) {
        try {
          await this.runOnce();
        } catch (err) {
          if (!signal.aborted) this.log.error("[sync] cycle failed", err);
        }
        try {
          await this.sleep(this.intervalMs, signal);
        } catch {
          break;
        }
      }
    })();
  }

  /** Interrupts the current cycle (in-flight request, backoff or quota pause) and waits for it. */
  async stop(): Promise<void> {
    this.controller.abort(new DOMException("The sync worker stopped.", "AbortError"));
    await this.loop;
    await this.running?.catch(() => undefined);
    this.loop = null;
  }

  /** One full cycle; a call during a running cycle joins it. */
  runOnce(): Promise<CycleReport> {
    if (!this.running) {
      if (this.controller.signal.aborted) this.controller = new AbortController();
      this.running = this.cycle().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  // ── the cycle ──────────────────────────────────────────────────────────────────────────────

  private async cycle(): Promise<CycleReport> {
    const signal = this.controller.signal;
    const startedAt = this.now();
    this.startedAt ??= startedAt;
    this.cycleRequests = 0;
    const report: CycleReport = {
      startedAt,
      finishedAt: startedAt,
      requests: 0,
      resources: {},
      rewalkedDays: [],
      matchedDays: [],
      aborted: false,
    };
    await this.heartbeat({ cycleStartedAt: startedAt });
    try {
      if (startedAt.getTime() - this.catalogAt >= this.catalogRefreshMs || !(await this.hasDays())) {
        const ok = [
          await this.step(report, "event", (t) => this.syncEvent(t)),
          await this.step(report, "days", (t) => this.syncDays(t)),
          await this.step(report, "zones", (t) => this.syncZones(t)),
          await this.step(report, "ticket_types", (t) => this.syncTicketTypes(t)),
        ];
        if (ok.every(Boolean)) this.catalogAt = startedAt.getTime();
      }
      await this.step(report, "tickets", (t) => this.syncTickets(t));
      await this.step(report, "review_wristbands", (t) => this.syncReview(t));

      // Summaries first, tails after: every record a summary counted is then in the mirror,
      // unless the tail cannot see it (an id below the cursor) — which is what the checksum finds.
      const checksum = new Tracker();
      const summaries = await this.guard(checksum, () => this.fetchSummaries(checksum));
      for (const tail of ["sales", "topups", "scans"] as const) {
        await this.step(report, tail, async (t) => {
          t.lagSeconds = await this.syncTail(tail, t);
        });
      }
      if (summaries) await this.guard(checksum, () => this.reconcile(summaries, checksum, report));
      await this.guard(checksum, () => this.handleSyncRequests(checksum, report));
      await this.finish(report, "checksum", checksum);
    } catch (err) {
      if (!signal.aborted) throw err;
      report.aborted = true;
    }
    report.finishedAt = this.now();
    report.requests = this.cycleRequests;
    await this.heartbeat({
      cycleFinishedAt: report.aborted ? undefined : report.finishedAt,
      cycleMs: report.finishedAt.getTime() - startedAt.getTime(),
    }).catch(() => undefined);
    return report;
  }

  /** Runs one resource's sync and records its outcome; an abort ends the cycle. */
  private async step(
    report: CycleReport,
    resource: SyncResource,
    fn: (t: Tracker) => Promise<void>,
  ): Promise<boolean> {
    const t = new Tracker();
    await this.guard(t, () => fn(t));
    return this.finish(report, resource, t);
  }

  /** Runs fn; a failure is kept in the tracker (an abort is rethrown). */
  private async guard<T>(t: Tracker, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      if (this.controller.signal.aborted) throw err;
      t.error = err;
      return undefined;
    }
  }

  private async finish(report: CycleReport, resource: SyncResource, t: Tracker): Promise<boolean> {
    const at = this.now();
    const ok = t.error === null;
    report.resources[resource] = {
      ok,
      requests: t.requests,
      records: t.records,
      ...(ok ? {} : { error: errorFields(t.error) }),
    };
    await this.db.query(
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
      [
        resource,
        at.toISOString(),
        ok ? at.toISOString() : null,
        ok ? (t.lagSeconds ?? 0) : null,
        t.requests,
        t.records,
        t.requests,
        t.records,
      ],
    );
    if (!ok) {
      await this.recordError(resource, t.error);
      this.log.warn(`[sync] ${resource} failed`, errorFields(t.error));
    }
    await this.heartbeat({}).catch(() => undefined);
    return ok;
  }

  /** Keeps an upstream error in `sync_state.last_error*` and `sync_errors` (the latest 200). */
  private async recordError(resource: SyncResource, err: unknown) {
    const e = errorFields(err);
    const at = this.now().toISOString();
    await this.db.query(
      `insert into sync_state (resource, last_error, last_error_code, last_error_request_id, last_error_at)
       values ($1, $2, $3, $4, $5)
       on conflict (resource) do update set last_error = excluded.last_error,
         last_error_code = excluded.last_error_code, last_error_request_id = excluded.last_error_request_id,
         last_error_at = excluded.last_error_at`,
      [resource, e.message, e.code, e.request_id, at],
    );
    await this.db.query(
      "insert into sync_errors (at, resource, status, code, message, request_id) values ($1, $2, $3, $4, $5, $6)",
      [at, resource, e.status, e.code, e.message, e.request_id],
    );
    await this.db.query(
      "delete from sync_errors where id not in (select id from sync_errors order by id desc limit 200)",
    );
  }

  // ── quota ──────────────────────────────────────────────────────────────────────────────────

  /** Request options that hold every attempt back to keep the reserve, and count it. */
  private opts(t: Tracker): RequestOptions {
    return {
      signal: this.controller.signal,
      beforeAttempt: async () => {
        await this.keepReserve();
        t.requests++;
        this.cycleRequests++;
      },
    };
  }

  /**
   * Waits while one more request would dip into the reserved share of the current read window.
   * The state is the client's last seen `x-ratelimit-*`; once its window has reset it no longer binds.
   */
  private async keepReserve() {
    for (;;) {
      this.controller.signal.throwIfAborted();
      const quota = this.client.rateLimit("read");
      const now = this.now().getTime();
      if (!quota || quota.resetAt.getTime() <= now) return;
      const reserve = Math.ceil(quota.limit * this.reserveFraction);
      if (quota.remaining - 1 >= reserve) return;
      const until = new Date(quota.resetAt.getTime() + 50);
      this.pausedUntil = until;
      this.log.info(
        `[sync] read quota at its reserve (${quota.remaining}/${quota.limit} left); pausing until ${until.toISOString()}`,
      );
      await this.heartbeat({}).catch(() => undefined);
      await this.sleep(until.getTime() - now, this.controller.signal);
      this.pausedUntil = null;
    }
  }

  private async heartbeat(p: { cycleStartedAt?: Date; cycleFinishedAt?: Date; cycleMs?: number }) {
    const q = this.client.rateLimit("read");
    const now = this.now();
    await this.db.query(
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
        this.instance,
        (this.startedAt ?? now).toISOString(),
        now.toISOString(),
        this.intervalMs,
        p.cycleStartedAt?.toISOString() ?? null,
        p.cycleFinishedAt?.toISOString() ?? null,
        p.cycleMs ?? null,
        this.cycleRequests,
        this.pausedUntil?.toISOString() ?? null,
        q?.limit ?? null,
        q?.remaining ?? null,
        q?.resetAt.toISOString() ?? null,
        q?.observedAt.toISOString() ?? null,
      ],
    );
  }

  // ── catalog ────────────────────────────────────────────────────────────────────────────────

  private async hasDays() {
    return (await this.db.query("select 1 from m_days limit 1")).length > 0;
  }

  private async syncEvent(t: Tracker) {
    const event = await this.client.event(this.opts(t));
    if (await saveEvent(this.db, event, this.now())) {
      this.log.warn(
        `[sync] the key now serves event ${event.id}: the mirror of the previous event was dropped`,
      );
    }
    t.records = 1;
  }

  private async syncDays(t: Tracker) {
    const days = await this.client.days(this.opts(t));
    await replaceDays(this.db, days);
    t.records = days.length;
  }

  private async syncZones(t: Tracker) {
    const zones = await this.client.zones(this.opts(t));
    await replaceZones(this.db, zones);
    t.records = zones.length;
  }

  private async syncTicketTypes(t: Tracker) {
    const types = await this.client.ticketTypes(this.opts(t));
    await replaceTicketTypes(this.db, types);
    t.records = types.length;
  }

  // ── tickets and the review queue ───────────────────────────────────────────────────────────

  private async syncTickets(t: Tracker) {
    const state = await this.readState("tickets");
    const since = state.watermark ? new Date(state.watermark.getTime() - this.overlapMs) : undefined;
    for await (const page of this.client.pages(
      "/tickets",
      { limit: this.pageSize, updated_since: since },
      this.opts(t),
    )) {
      if (page.data.length === 0) continue;
      const newest = latest(page.data.map((x) => x.updated_at));
      await this.db.transaction(async (tx) => {
        await upsertTickets(tx, page.data);
        await tx.query(
          `insert into sync_state (resource, watermark) values ('tickets', $1)
           on conflict (resource) do update set watermark = greatest(sync_state.watermark, excluded.watermark)`,
          [newest],
        );
      });
      t.records += page.data.length;
    }
  }

  private async syncReview(t: Tracker) {
    const pending = [];
    for await (const page of this.client.pages(
      "/wristbands",
      { limit: this.pageSize, status: "pending_review" },
      this.opts(t),
    ))
      pending.push(...page.data);
    await replaceReviewWristbands(this.db, pending);
    t.records = pending.length;
  }

  // ── tails: sales, top-ups, scans ───────────────────────────────────────────────────────────

  private async readState(resource: SyncResource) {
    const [row] = await this.db.query<{ cursor: string | null; watermark: Date | string | null }>(
      "select cursor, watermark from sync_state where resource = $1",
      [resource],
    );
    return {
      cursor: row?.cursor ?? null,
      watermark: row?.watermark ? new Date(row.watermark) : null,
    };
  }

  /**
   * Walks what arrived since the cursor. First run: everything. A refused cursor (400): `since` =
   * newest mirrored `occurred_at` − overlap, the cursor then restarting from what that walk saw.
   */
  private async syncTail(resource: TailResource, t: Tracker): Promise<number | null> {
    const state = await this.readState(resource);
    if (state.cursor) {
      try {
        await this.walkTail(resource, { starting_after: state.cursor }, t, false);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 400)) throw err;
        this.log.warn(
          `[sync] ${resource}: cursor ${state.cursor} refused (${err.code}); falling back to since`,
        );
        await this.recordError(resource, err);
        await this.walkTail(resource, this.sinceParams(state.watermark), t, true);
      }
    } else {
      await this.walkTail(resource, this.sinceParams(state.watermark), t, true);
    }
    const [newest] = await this.db.query<{ at: Date | string | null }>(
      `select max(created_at) as at from ${tailTables[resource]}`,
    );
    // Lag: how far behind now the newest mirrored arrival is.
    return newest?.at ? Math.max(0, (this.now().getTime() - new Date(newest.at).getTime()) / 1000) : null;
  }

  private sinceParams(watermark: Date | null) {
    return watermark ? { since: new Date(watermark.getTime() - this.overlapMs) } : {};
  }

  private async walkTail(
    resource: TailResource,
    params: { starting_after?: string; since?: Date },
    t: Tracker,
    restartCursor: boolean,
  ) {
    if (restartCursor)
      await this.db.query("update sync_state set cursor = null where resource = $1", [resource]);
    const pages = this.client.pages(
      tailPaths[resource],
      { limit: this.pageSize, ...params },
      this.opts(t),
    ) as AsyncGenerator<{ data: (Transaction | Topup | Checkin)[]; next_cursor: string | null }>;
    for await (const page of pages) {
      const last = page.data.length ? page.data[page.data.length - 1].id : null;
      const cursor = page.next_cursor ?? last;
      if (!cursor) continue;
      const newest = page.data.length ? latest(page.data.map((x) => x.occurred_at)) : null;
      await this.db.transaction(async (tx) => {
        await upsertTail(tx, resource, page.data);
        await tx.query(
          `insert into sync_state (resource, cursor, watermark) values ($1, $2, $3)
           on conflict (resource) do update set cursor = greatest(sync_state.cursor, excluded.cursor),
             watermark = greatest(sync_state.watermark, excluded.watermark)`,
          [resource, cursor, newest],
        );
      });
      t.records += page.data.length;
    }
  }

  // ── per-day checksum ───────────────────────────────────────────────────────────────────────

  private async fetchSummaries(t: Tracker): Promise<Map<string, SalesSummary>> {
    const days = await this.db.query<{ id: string }>("select id from m_days order by starts_at, id");
    const summaries = new Map<string, SalesSummary>();
    for (const day of days)
      summaries.set(day.id, await this.client.salesSummary({ day_id: day.id }, this.opts(t)));
    return summaries;
  }

  /**
   * Compares each day's mirror with its summary: all its records, or those that had arrived when the
   * summary was generated (records keep arriving meanwhile). A day that differs gets one confirmation
   * (catch up the tails, fetch its summary again); if it still differs, its sales and/or top-ups are
   * re-walked by `day_id`.
   */
  private async reconcile(summaries: Map<string, SalesSummary>, t: Tracker, report: CycleReport) {
    const differing: string[] = [];
    for (const [dayId, summary] of summaries) {
      const verdict = await this.compare(dayId, summary);
      if (verdict.sales && verdict.flows) {
        await this.saveCheck(dayId, summary, true, false);
        report.matchedDays.push(dayId);
      } else differing.push(dayId);
    }
    if (differing.length === 0) return;

    await this.syncTail("sales", t);
    await this.syncTail("topups", t);
    for (const dayId of differing) {
      let summary = await this.client.salesSummary({ day_id: dayId }, this.opts(t));
      let verdict = await this.compare(dayId, summary);
      let rewalked = false;
      const stuckSince = this.unresolved.get(dayId);
      const holdOff = stuckSince !== undefined && this.now().getTime() - stuckSince < this.rewalkBackoffMs;
      if ((!verdict.sales || !verdict.flows) && !holdOff) {
        this.log.info(
          `[sync] day ${dayId} differs from the sales summary (${verdict.sales ? "" : "sales "}${verdict.flows ? "" : "top-ups"}); re-walking`,
        );
        if (!verdict.sales) t.records += await this.rewalkDay("sales", dayId, t);
        if (!verdict.flows) t.records += await this.rewalkDay("topups", dayId, t);
        rewalked = true;
        report.rewalkedDays.push(dayId);
        summary = await this.client.salesSummary({ day_id: dayId }, this.opts(t));
        verdict = await this.compare(dayId, summary);
      }
      const matched = verdict.sales && verdict.flows;
      await this.saveCheck(dayId, summary, matched, rewalked);
      if (matched) {
        report.matchedDays.push(dayId);
        this.unresolved.delete(dayId);
      } else if (rewalked) {
        // Still different right after a full re-walk: the upstream's lists and summary disagree
        // (or records pour in). Re-walking every cycle would only burn quota: hold off a while.
        this.unresolved.set(dayId, this.now().getTime());
        this.log.warn(
          `[sync] day ${dayId} still differs after a re-walk; next re-walk in ${this.rewalkBackoffMs} ms`,
        );
      }
    }
  }

  /**
   * "Re-sync this night" (migration 005's `sync_requests`): each requested day is re-walked (sales and
   * top-ups by `day_id`), checked against its summary again, and the request marked handled.
   */
  private async handleSyncRequests(t: Tracker, report: CycleReport) {
    const pending = await this.db.query<{ day_id: string }>(
      "select distinct day_id from sync_requests where handled_at is null order by day_id",
    );
    for (const { day_id: dayId } of pending) {
      const known = await this.db.query("select 1 from m_days where id = $1", [dayId]);
      if (known.length > 0) {
        this.log.info(`[sync] day ${dayId}: re-sync requested; re-walking`);
        t.records += await this.rewalkDay("sales", dayId, t);
        t.records += await this.rewalkDay("topups", dayId, t);
        const summary = await this.client.salesSummary({ day_id: dayId }, this.opts(t));
        const verdict = await this.compare(dayId, summary);
        await this.saveCheck(dayId, summary, verdict.sales && verdict.flows, true);
        if (!report.rewalkedDays.includes(dayId)) report.rewalkedDays.push(dayId);
        this.unresolved.delete(dayId);
      }
      await this.db.query(
        "update sync_requests set handled_at = $2 where day_id = $1 and handled_at is null",
        [dayId, this.now().toISOString()],
      );
    }
  }

  private async compare(dayId: string, summary: SalesSummary) {
    const upstream = summaryTotals(summary);
    const all = await mirrorDayTotals(this.db, dayId);
    const upTo = await mirrorDayTotals(this.db, dayId, new Date(summary.generated_at));
    return {
      sales: salesEqual(upstream, all) || salesEqual(upstream, upTo),
      flows: flowsEqual(upstream, all) || flowsEqual(upstream, upTo),
      mirror: all,
    };
  }

  private async saveCheck(dayId: string, summary: SalesSummary, matched: boolean, rewalked: boolean) {
    const mirror: DayTotals = await mirrorDayTotals(this.db, dayId);
    const at = this.now().toISOString();
    await this.db.query(
      `insert into sync_day_checks (day_id, checked_at, matched, upstream, mirror, rewalks, last_rewalk_at)
       values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7)
       on conflict (day_id) do update set checked_at = excluded.checked_at, matched = excluded.matched,
         upstream = excluded.upstream, mirror = excluded.mirror,
         rewalks = sync_day_checks.rewalks + excluded.rewalks,
         last_rewalk_at = coalesce(excluded.last_rewalk_at, sync_day_checks.last_rewalk_at)`,
      [
        dayId,
        at,
        matched,
        JSON.stringify({ ...summaryTotals(summary), generated_at: summary.generated_at }),
        JSON.stringify(mirror),
        rewalked ? 1 : 0,
        rewalked ? at : null,
      ],
    );
  }

  /** Walks every record of one day, upserting; then deletes the day's mirrored records not listed. */
  private async rewalkDay(resource: "sales" | "topups", dayId: string, t: Tracker): Promise<number> {
    const ids: string[] = [];
    if (resource === "sales") {
      for await (const page of this.client.pages(
        "/transactions",
        { limit: this.pageSize, day_id: dayId },
        this.opts(t),
      )) {
        await upsertSales(this.db, page.data);
        ids.push(...page.data.map((x) => x.id));
      }
    } else {
      for await (const page of this.client.pages(
        "/topups",
        { limit: this.pageSize, day_id: dayId },
        this.opts(t),
      )) {
        await upsertTopups(this.db, page.data);
        ids.push(...page.data.map((x) => x.id));
      }
    }
    const removed = await deleteDayRecordsNotIn(this.db, tailTables[resource], dayId, ids);
    if (removed)
      this.log.info(`[sync] day ${dayId}: ${removed} ${resource} no longer listed upstream, removed`);
    return ids.length;
  }
}

/** The latest of ISO 8601 timestamps (compared as instants, whatever their precision or offset). */
function latest(values: string[]): string {
  let best = values[0];
  for (const v of values) if (Date.parse(v) > Date.parse(best)) best = v;
  return best;
}
