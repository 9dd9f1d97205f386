import "server-only";
import { hostname } from "node:os";
import type { Db } from "@/lib/db/db";
import { hasMirroredDays } from "@/lib/server/store/mirror";
import { saveHeartbeat, saveResourceOutcome } from "@/lib/server/store/sync-state";
import { defaultSleep, type Sleep, type UpstreamClient } from "@/lib/server/upstream/client";
import { catalogSyncs } from "./catalog";
import { DayChecksum, fetchSummaries } from "./checksum";
import {
  errorFields,
  ResourceRun,
  recordError,
  type SyncContext,
  type SyncLogger,
  type SyncResource,
} from "./context";
import { QuotaPacer } from "./quota";
import { syncTail } from "./tails";
import { syncReviewQueue, syncTickets } from "./tickets";

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

/**
 * Mirrors the upstream event into the dashboard store, cheaply and exactly:
 * - catalog (event, days, zones, ticket types): full refresh, every `catalogRefreshMs` (catalog.ts);
 * - tickets by `updated_since`, and the review queue (tickets.ts);
 * - sales, top-ups, scans: tail by cursor, `since` when a cursor is refused (tails.ts);
 * - per-day checksum against the sales summary, re-walking a day that differs (checksum.ts, rewalk.ts).
 * It never spends the last `reserveFraction` of the read quota's window (quota.ts).
 */
export class SyncWorker {
  private readonly db: Db;
  private readonly client: UpstreamClient;
  private readonly intervalMs: number;
  private readonly log: SyncLogger;
  private readonly now: () => Date;
  private readonly sleep: Sleep;
  private readonly catalogRefreshMs: number;
  private readonly instance: string;
  private readonly quota: QuotaPacer;
  private readonly checksum: DayChecksum;
  private readonly ctx: SyncContext;
  private controller = new AbortController();
  private running: Promise<CycleReport> | null = null;
  private loop: Promise<void> | null = null;
  private catalogAt = 0;
  private startedAt: Date | null = null;

  constructor(options: SyncWorkerOptions) {
    this.db = options.db;
    this.client = options.client;
    this.intervalMs = options.intervalMs;
    this.log = options.log;
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? defaultSleep;
    this.catalogRefreshMs = options.catalogRefreshMs ?? 5 * 60_000;
    this.instance = options.instance ?? `${hostname()}:${process.pid}`;
    this.checksum = new DayChecksum(options.rewalkBackoffMs ?? 10 * 60_000);
    this.quota = new QuotaPacer({
      client: this.client,
      now: this.now,
      sleep: this.sleep,
      log: this.log,
      reserveFraction: options.reserveFraction ?? 0.4,
      signal: () => this.controller.signal,
      onPause: () => this.heartbeat({}),
    });
    this.ctx = {
      db: this.db,
      client: this.client,
      now: this.now,
      log: this.log,
      pageSize: options.pageSize ?? 200,
      overlapMs: options.overlapMs ?? 10 * 60_000,
      request: (run) => this.quota.request(run),
    };
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

  private async cycle(): Promise<CycleReport> {
    const signal = this.controller.signal;
    const startedAt = this.now();
    this.startedAt ??= startedAt;
    this.quota.cycleRequests = 0;
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
      await this.syncAll(report, startedAt);
    } catch (err) {
      if (!signal.aborted) throw err;
      report.aborted = true;
    }
    report.finishedAt = this.now();
    report.requests = this.quota.cycleRequests;
    await this.heartbeat({
      cycleFinishedAt: report.aborted ? undefined : report.finishedAt,
      cycleMs: report.finishedAt.getTime() - startedAt.getTime(),
    }).catch(() => undefined);
    return report;
  }

  /** Every resource in cycle order; throws only when stop() interrupts it. */
  private async syncAll(report: CycleReport, startedAt: Date): Promise<void> {
    if (startedAt.getTime() - this.catalogAt >= this.catalogRefreshMs || !(await hasMirroredDays(this.db))) {
      const ok: boolean[] = [];
      for (const [resource, sync] of catalogSyncs)
        ok.push(await this.step(report, resource, (run) => sync(this.ctx, run)));
      if (ok.every(Boolean)) this.catalogAt = startedAt.getTime();
    }
    await this.step(report, "tickets", (run) => syncTickets(this.ctx, run));
    await this.step(report, "review_wristbands", (run) => syncReviewQueue(this.ctx, run));

    // Summaries first, tails after: every record a summary counted is then in the mirror,
    // unless the tail cannot see it (an id below the cursor) — which is what the checksum finds.
    const checksum = new ResourceRun();
    const summaries = await this.guard(checksum, () => fetchSummaries(this.ctx, checksum));
    for (const tail of ["sales", "topups", "scans"] as const) {
      await this.step(report, tail, async (run) => {
        run.lagSeconds = await syncTail(this.ctx, tail, run);
      });
    }
    if (summaries)
      await this.guard(checksum, () => this.checksum.reconcile(this.ctx, checksum, summaries, report));
    await this.guard(checksum, () => this.checksum.handleResyncRequests(this.ctx, checksum, report));
    await this.finish(report, "checksum", checksum);
  }

  /** Runs one resource's sync and records its outcome; an abort ends the cycle. */
  private async step(
    report: CycleReport,
    resource: SyncResource,
    fn: (run: ResourceRun) => Promise<void>,
  ): Promise<boolean> {
    const run = new ResourceRun();
    await this.guard(run, () => fn(run));
    return this.finish(report, resource, run);
  }

  /** Runs fn; a failure is kept in the run (an abort is rethrown). */
  private async guard<T>(run: ResourceRun, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      if (this.controller.signal.aborted) throw err;
      run.error = err;
      return undefined;
    }
  }

  private async finish(report: CycleReport, resource: SyncResource, run: ResourceRun): Promise<boolean> {
    const ok = run.error === null;
    report.resources[resource] = {
      ok,
      requests: run.requests,
      records: run.records,
      ...(ok ? {} : { error: errorFields(run.error) }),
    };
    await saveResourceOutcome(this.db, {
      resource,
      at: this.now(),
      ok,
      lagSeconds: ok ? (run.lagSeconds ?? 0) : null,
      requests: run.requests,
      records: run.records,
    });
    if (!ok) {
      await recordError(this.ctx, resource, run.error);
      this.log.warn(`[sync] ${resource} failed`, errorFields(run.error));
    }
    await this.heartbeat({}).catch(() => undefined);
    return ok;
  }

  private heartbeat(cycle: { cycleStartedAt?: Date; cycleFinishedAt?: Date; cycleMs?: number }) {
    const now = this.now();
    return saveHeartbeat(this.db, {
      ...cycle,
      instance: this.instance,
      startedAt: this.startedAt ?? now,
      at: now,
      intervalMs: this.intervalMs,
      cycleRequests: this.quota.cycleRequests,
      pausedUntil: this.quota.pausedUntil,
      quota: this.client.rateLimit("read"),
    });
  }
}
