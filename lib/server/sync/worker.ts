import "server-only";
import { hostname } from "node:os";
import type { Db } from "@/lib/db/db";
import { pushBus } from "@/lib/server/push";
import { type BackfillRow, daySummaries } from "@/lib/server/store/backfill";
import { eventDays } from "@/lib/server/store/event-settings";
import { hasMirroredDays, type TailResource } from "@/lib/server/store/mirror";
import { saveHeartbeat, saveResourceOutcome } from "@/lib/server/store/sync-state";
import { defaultSleep, type Sleep, type UpstreamClient } from "@/lib/server/upstream/client";
import {
  backfillPage,
  dayWalked,
  ensureBackfillPlan,
  firstDayOf,
  nextPending,
  tailReady,
  tailResources,
  walkingOrder,
} from "./backfill";
import { catalogSyncs } from "./catalog";
import { DayChecksum, fetchSummaries, summariesDue } from "./checksum";
import {
  errorFields,
  ResourceRun,
  recordError,
  type SyncContext,
  type SyncLogger,
  type SyncResource,
} from "./context";
import { addRun, type CycleReport, emptyReport } from "./cycle-report";
import { QuotaPacer } from "./quota";
import { pollIntervalMs, pollRequests, tailsOfPoll } from "./tail-schedule";
import { syncTail } from "./tails";
import { syncReviewQueue, syncTickets } from "./tickets";

export interface SyncWorkerOptions {
  db: Db;
  client: UpstreamClient;
  /** Pause between the start of one cycle and the next (tail polls and backfill pages run between). */
  intervalMs: number;
  log: SyncLogger;
  /** The client's clock by default; must be the same (rate-limit reset instants are compared with it). */
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
  /**
   * Between cycles, the sales tail is polled this often, top-ups and scans every third time
   * (default 3 s; 0: tails only in cycles). A poll is skipped while the quota has no room for it.
   */
  tailIntervalMs?: number;
  /**
   * Runs after each cycle with the worker's clock (the terminal states and alerts), and after a tail
   * poll or a backfill page when it last ran a cycle interval ago (cycles wait while the first mirror
   * has the quota): the worker knows no feature, the process's root hands it this. A failure is
   * logged, the cycle stands.
   */
  afterCycle?: (at: Date) => Promise<unknown>;
}

/** What one step of the worker's loop did. */
export type StepKind = "cycle" | "tail" | "backfill" | "idle";

/** The least room a cycle is assumed to need (catalog, summaries, tickets, review, tails). */
const MIN_CYCLE_REQUESTS = 8;

/**
 * Mirrors the upstream event into the dashboard store, cheaply and exactly, today first:
 * - catalog (event, days, zones, ticket types): full refresh, every `catalogRefreshMs` (catalog.ts);
 * - every day's sales summary, the current day first, kept for the screens (checksum.ts);
 * - the first mirror of sales, top-ups and scans day by day, the current day first (backfill.ts);
 * - tickets by `updated_since` and the review queue (tickets.ts), once the current day is walked;
 * - sales, top-ups, scans: tail by cursor, polled every `tailIntervalMs` between cycles (tails.ts);
 * - per-day checksum against the sales summary, re-walking a day that differs (checksum.ts, rewalk.ts).
 * It never spends the last `reserveFraction` of the read quota's window (quota.ts).
 */
export class SyncWorker {
  private readonly db: Db;
  private readonly client: UpstreamClient;
  private readonly intervalMs: number;
  private readonly tailIntervalMs: number;
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
  private nextCycleAt = 0;
  private nextTailAt = 0;
  private tailPolls = 0;
  /** Requests of the last cycle: the room a cycle needs in the window. */
  private lastCycleRequests = MIN_CYCLE_REQUESTS;
  private backfillRetryAt = 0;
  /** The backfill plan as last read and advanced (empty: no plan, or none needed). */
  private plan: BackfillRow[] = [];
  /** When each day's summary was last fetched. */
  private readonly summariesAt = new Map<string, number>();
  private readonly afterCycle: SyncWorkerOptions["afterCycle"];
  private afterCycleAt = 0;

  constructor(options: SyncWorkerOptions) {
    this.db = options.db;
    this.client = options.client;
    this.intervalMs = options.intervalMs;
    this.tailIntervalMs = options.tailIntervalMs ?? 3000;
    this.afterCycle = options.afterCycle;
    this.log = options.log;
    this.now = options.now ?? (() => options.client.now());
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

  /** Runs the loop of steps (a cycle every `intervalMs`, tail polls, backfill pages) until stop(). */
  start(): void {
    if (this.loop) return;
    this.controller = new AbortController();
    const signal = this.controller.signal;
    this.loop = (async () => {
      while (!signal.aborted) {
        try {
          await this.step();
        } catch (err) {
          if (signal.aborted) break;
          this.log.error("[sync] step failed", err);
          this.nextCycleAt = this.now().getTime() + this.intervalMs;
        }
      }
    })();
  }

  /** Interrupts the current step (in-flight request, backoff, quota pause or sleep) and waits for it. */
  async stop(): Promise<void> {
    this.controller.abort(new DOMException("The sync worker stopped.", "AbortError"));
    await this.loop;
    await this.running?.catch(() => undefined);
    this.loop = null;
  }

  /**
   * One step of the loop, the most urgent first: a cycle when due; a tail poll when due and the quota
   * has room for it; a page of the backfill while the quota keeps room for the tail polls; else a
   * sleep until the next of these is due (or the quota's window resets). Throws when stop() ends it.
   */
  async step(): Promise<StepKind> {
    if (this.controller.signal.aborted) this.controller = new AbortController();
    const signal = this.controller.signal;
    const now = this.now().getTime();
    if (now >= this.nextCycleAt) {
      // A cycle the window has no room for, next to the tail polls still to come in it, would
      // starve the polls (or wait on the quota and hold them): it waits for the next window instead.
      const reset = this.quota.windowResetAt();
      if (reset && !this.quota.hasRoom(this.lastCycleRequests, this.pollRequestsUntil(reset.getTime())))
        this.nextCycleAt = reset.getTime() + 50;
      else {
        this.lastCycleRequests = Math.max(MIN_CYCLE_REQUESTS, (await this.runCycle(false)).requests);
        this.nextCycleAt = this.now().getTime() + this.intervalMs;
        return "cycle";
      }
    }
    const tailing = this.tailIntervalMs > 0 && tailResources.some((r) => this.follows(r));
    if (tailing && now >= this.nextTailAt) {
      this.nextTailAt = now + this.pollIntervalMs();
      if (this.quota.hasRoom(1)) {
        await this.pollTails();
        await this.afterCycleIfDue();
        return "tail";
      }
    }
    const pending = nextPending(this.plan);
    const reset = this.quota.windowResetAt();
    const tailRoom = reset ? this.pollRequestsUntil(reset.getTime()) : 0;
    if (pending && now >= this.backfillRetryAt && this.quota.hasRoom(1, tailRoom)) {
      await this.backfillStep(pending);
      await this.afterCycleIfDue();
      return "backfill";
    }
    const wake = [this.nextCycleAt, tailing ? this.nextTailAt : Number.POSITIVE_INFINITY];
    if (pending) wake.push(Math.max(this.backfillRetryAt, this.quota.windowResetAt()?.getTime() ?? now));
    await this.sleep(Math.max(1, Math.min(...wake) - now), signal);
    return "idle";
  }

  /**
   * One full cycle that also walks the whole backfill (waiting on the quota as needed): everything
   * the upstream held is mirrored when it returns. A call during a running cycle joins it.
   */
  runOnce(): Promise<CycleReport> {
    return this.runCycle(true);
  }

  private runCycle(drain: boolean): Promise<CycleReport> {
    if (!this.running) {
      if (this.controller.signal.aborted) this.controller = new AbortController();
      this.running = this.cycle(drain).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async cycle(drain: boolean): Promise<CycleReport> {
    const signal = this.controller.signal;
    const startedAt = this.now();
    this.startedAt ??= startedAt;
    this.quota.cycleRequests = 0;
    const report = emptyReport(startedAt);
    await this.heartbeat({ cycleStartedAt: startedAt });
    try {
      await this.syncAll(report, startedAt, drain);
    } catch (err) {
      if (!signal.aborted) throw err;
      report.aborted = true;
    }
    if (!report.aborted) await this.runAfterCycle();
    report.finishedAt = this.now();
    report.requests = this.quota.cycleRequests;
    await this.heartbeat({
      cycleFinishedAt: report.aborted ? undefined : report.finishedAt,
      cycleMs: report.finishedAt.getTime() - startedAt.getTime(),
    }).catch(() => undefined);
    if (!report.aborted) pushBus(this.db).emit("cycle");
    return report;
  }

  /**
   * Every resource in cycle order; throws only when stop() interrupts it. Until the current day is
   * walked, a cycle is the catalog and the summaries only: the backfill has the quota to itself.
   */
  private async syncAll(report: CycleReport, startedAt: Date, drain: boolean): Promise<void> {
    // While today is walked, the catalog is refreshed three times less often: its requests are
    // taken from today's walk.
    const catalogEvery = this.walkingToday() ? 3 * this.catalogRefreshMs : this.catalogRefreshMs;
    if (startedAt.getTime() - this.catalogAt >= catalogEvery || !(await hasMirroredDays(this.db))) {
      const ok: boolean[] = [];
      for (const [resource, sync] of catalogSyncs)
        ok.push(await this.runResource(report, resource, (run) => sync(this.ctx, run)));
      if (ok.every(Boolean)) this.catalogAt = startedAt.getTime();
    }
    const checksum = new ResourceRun();
    this.plan = (await this.guard(checksum, () => ensureBackfillPlan(this.ctx))) ?? this.plan;
    // Summaries first, tails after: every record a summary counted is then in the mirror,
    // unless the tail cannot see it (an id below the cursor) — which is what the checksum finds.
    const summaries = await this.guard(checksum, () => this.fetchDueSummaries(checksum, startedAt));
    if (drain) await this.drainBackfill(report);
    const first = firstDayOf(this.plan);
    if (!first || dayWalked(this.plan, first)) {
      await this.runResource(report, "tickets", (run) => syncTickets(this.ctx, run));
      await this.runResource(report, "review_wristbands", (run) => syncReviewQueue(this.ctx, run));
    }
    for (const tail of tailResources) {
      if (!this.follows(tail)) continue;
      await this.runResource(report, tail, async (run) => {
        run.lagSeconds = await syncTail(this.ctx, tail, run);
      });
    }
    if (summaries) {
      // A day still being walked differs from its summary by design: it is compared once walked.
      for (const dayId of [...summaries.keys()]) if (!dayWalked(this.plan, dayId)) summaries.delete(dayId);
      await this.guard(checksum, () =>
        this.checksum.reconcile(this.ctx, checksum, summaries, report, (r) => this.follows(r)),
      );
    }
    await this.guard(checksum, () => this.checksum.handleResyncRequests(this.ctx, checksum, report));
    await this.finish(report, "checksum", checksum);
  }

  /**
   * Whether a tail is followed: once the first mirror has walked the whole current day (its walk
   * reaches today's newest records by itself, and every request goes to it until then).
   */
  private follows(resource: TailResource): boolean {
    return !this.walkingToday() && tailReady(this.plan, resource);
  }

  /** Whether the first mirror is still walking the current day. */
  private walkingToday(): boolean {
    const first = firstDayOf(this.plan);
    return first !== null && !dayWalked(this.plan, first);
  }

  /** The summaries this cycle fetches (see summariesDue), the current day first. */
  private async fetchDueSummaries(run: ResourceRun, at: Date) {
    const backfilling = nextPending(this.plan) !== null;
    const due = summariesDue({
      order: walkingOrder(await eventDays(this.db), this.now()).map((d) => d.id),
      backfilling,
      walkingToday: this.walkingToday(),
      kept: backfilling ? new Set((await daySummaries(this.db)).keys()) : new Set(),
      fetchedAt: this.summariesAt,
      refreshMs: this.catalogRefreshMs,
      at,
    });
    const summaries = await fetchSummaries(this.ctx, run, due);
    for (const dayId of due) this.summariesAt.set(dayId, at.getTime());
    return summaries;
  }

  /** One page of the backfill, recorded under its resource; a failure holds the backfill a while. */
  private async backfillStep(row: BackfillRow, report = emptyReport(this.now())): Promise<boolean> {
    const ok = await this.runResource(report, row.resource, (run) =>
      backfillPage(this.ctx, run, this.plan, row).then(() => undefined),
    );
    if (!ok) this.backfillRetryAt = this.now().getTime() + this.intervalMs;
    return ok;
  }

  /** The whole backfill in this cycle (the quota pausing it as needed), until done or a failure. */
  private async drainBackfill(report: CycleReport): Promise<void> {
    for (let row = nextPending(this.plan); row; row = nextPending(this.plan))
      if (!(await this.backfillStep(row, report))) break;
  }

  private async runAfterCycle(): Promise<void> {
    if (!this.afterCycle) return;
    this.afterCycleAt = this.now().getTime();
    await this.afterCycle(this.now()).catch((err) => this.log.error("[sync] after-cycle work failed", err));
  }

  private afterCycleIfDue(): Promise<void> {
    return this.now().getTime() - this.afterCycleAt >= this.intervalMs
      ? this.runAfterCycle()
      : Promise.resolve();
  }

  private pollIntervalMs(): number {
    const [backfilling, limit] = [nextPending(this.plan) !== null, this.client.rateLimit("read")?.limit];
    return pollIntervalMs(this.tailIntervalMs, backfilling, limit, this.quota.reserveFraction);
  }

  /** Requests the tail polls ask for from now until `until`. */
  private pollRequestsUntil(until: number): number {
    if (this.tailIntervalMs <= 0) return 0;
    const followed = tailResources.filter((r) => this.follows(r)).length;
    return pollRequests(until - this.now().getTime(), this.pollIntervalMs(), followed);
  }

  /** A tail poll between cycles: sales every time, top-ups and scans every third time. */
  private async pollTails(): Promise<void> {
    const report = emptyReport(this.now());
    for (const tail of tailsOfPoll(this.tailPolls++)) {
      if (!this.follows(tail) || !this.quota.hasRoom(1)) continue;
      await this.runResource(report, tail, async (run) => {
        run.lagSeconds = await syncTail(this.ctx, tail, run);
      });
    }
  }

  /** Runs one resource's sync and records its outcome; an abort ends the cycle. */
  private async runResource(
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
    // A resource may run more than once in a cycle (its backfill pages, then its tail): summed.
    addRun(report, resource, {
      ok,
      requests: run.requests,
      records: run.records,
      ...(ok ? {} : { error: errorFields(run.error) }),
    });
    await saveResourceOutcome(this.db, {
      resource,
      at: this.now(),
      ok,
      lagSeconds: ok ? (run.lagSeconds ?? 0) : null,
      requests: run.requests,
      records: run.records,
    });
    if (!ok) {
      pushBus(this.db).emit("sync");
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
