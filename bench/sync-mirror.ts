/**
 * bench/sync-mirror: the real SyncWorker mirroring a seeded Integration API (~1,000,000 sales at
 * scale 20) into a fresh dashboard store, until the mirror holds every sale the API holds.
 *
 *   npm run bench:sync                (BENCH_SYNC_SCALE=20 ≈ 1,000,000 sales; BENCH_SYNC_PHASES=lifted,virtual)
 *
 * The API store is the one bench/api-read seeds and reuses (.data/bench-api-<scale>); the dashboard
 * store is a fresh PGlite under .data/bench-sync, removed at the end. Every upstream request goes
 * through a counting fetch (by path, and every 429).
 *
 * Phase "lifted" (wall clock): the API as its own process over HTTP, a key with the highest read
 * quota the admin API allows (100,000/min), the worker on the real clock: records/s and total time.
 *
 * Phase "virtual" (default quota, virtual time): 120 reads/min and the worker keeping 40 % of each
 * window for interactive lookups means >= 41.7 min for 1M sales even at the full quota, so this
 * phase runs the API in-process (Hono `app.request` as the client's fetch) with its real rate
 * limiter on a virtual clock shared with the client and the worker. The clock is the real clock plus
 * every sleep skipped: a sleep (a quota pause, a backoff) returns at once and moves the clock forward
 * by its length, so the elapsed time is what a real run would take (processing included), without
 * the waiting. Reported against the quota's floor: requests / 120 per min (the whole quota) and
 * requests / 72 per min (the worker's 60 % share).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { migrate } from "@/integration-api/store/migrate";
import { adminToken, createFullKey } from "@/integration-api/testing/api-process";
import { systemClock } from "@/lib/contract/clock";
import { type Db, openDb } from "@/lib/db/db";
import { openDashboardStore } from "@/lib/server/store";
import type { CycleReport } from "@/lib/server/sync/cycle-report";
import { SyncWorker } from "@/lib/server/sync/worker";
import { UpstreamClient } from "@/lib/server/upstream/client";
import {
  Counter,
  inProcessApi,
  seededApiStore,
  spawnSeededApi,
  VirtualClock,
  type Volumes,
  volumes,
} from "./sync-support";

const scale = Number(process.env.BENCH_SYNC_SCALE ?? 20);
const phases = (process.env.BENCH_SYNC_PHASES ?? "lifted,virtual").split(",").map((p) => p.trim());
const apiDir = `.data/bench-api-${scale}`;
const dashDir = ".data/bench-sync";
const PAGE = 200;
const MAX_CYCLES = 5;
/** The default read quota (decisions, "Rate limits") and the share the worker spends (1 − 0.4). */
const DEFAULT_READ_LIMIT = 120;
const WORKER_SHARE = 0.6;

/**
 * The fewest requests a mirror can be made with at 200 records a page: ceil(N/200) per list
 * (at least one request even when empty) and one request each for the event, days, zones and
 * ticket types.
 */
function minimumRequests(v: Volumes) {
  const pages = (n: number) => Math.max(1, Math.ceil(n / PAGE));
  const byResource = {
    event: 1,
    days: 1,
    zones: 1,
    ticket_types: 1,
    tickets: pages(v.tickets),
    review_wristbands: pages(v.review_wristbands),
    sales: pages(v.sales),
    topups: pages(v.topups),
    scans: pages(v.scans),
  };
  return { byResource, total: Object.values(byResource).reduce((a, b) => a + b, 0) };
}

const pathOf: Record<string, string> = {
  event: "/event",
  days: "/days",
  zones: "/zones",
  ticket_types: "/ticket-types",
  tickets: "/tickets",
  review_wristbands: "/wristbands",
  sales: "/transactions",
  topups: "/topups",
  scans: "/checkins",
};

// ── one mirror run ────────────────────────────────────────────────────────────────────────────

interface MirrorRun {
  cycles: number;
  records: number;
  mirroredSales: number;
  /** Days whose mirror equalled GET /reports/sales-summary?day_id= at the end of the last cycle. */
  matchedDays: number;
  /** Resources that failed in a cycle (the worker carries on; so does the bench, and reports them). */
  errors: { cycle: number; resource: string; code: string; message: string }[];
}

async function mirror(
  worker: SyncWorker,
  dash: Db,
  expectedSales: number,
  progress: () => string,
): Promise<MirrorRun> {
  const timer = setInterval(() => console.log(`  … ${progress()}`), 15_000);
  const reports: CycleReport[] = [];
  const errors: MirrorRun["errors"] = [];
  let mirroredSales = 0;
  try {
    for (let i = 0; i < MAX_CYCLES; i++) {
      const report = await worker.runOnce();
      reports.push(report);
      for (const [resource, r] of Object.entries(report.resources))
        if (r && !r.ok)
          errors.push({ cycle: i + 1, resource, code: r.error?.code ?? "", message: r.error?.message ?? "" });
      [{ n: mirroredSales }] = await dash.query<{ n: number }>("select count(*)::int as n from m_sales");
      console.log(
        `  cycle ${i + 1}: ${report.requests} requests, ${mirroredSales.toLocaleString("en")} of ${expectedSales.toLocaleString("en")} sales mirrored, days matched: ${report.matchedDays.length}, re-walked: ${report.rewalkedDays.length}`,
      );
      if (mirroredSales === expectedSales) break;
    }
  } finally {
    clearInterval(timer);
  }
  if (mirroredSales !== expectedSales)
    throw new Error(
      `the mirror holds ${mirroredSales} sales after ${MAX_CYCLES} cycles, not ${expectedSales}`,
    );
  const records = reports
    .flatMap((r) => Object.values(r.resources))
    .reduce((sum, r) => sum + (r?.records ?? 0), 0);
  const matchedDays = reports[reports.length - 1].matchedDays.length;
  return { cycles: reports.length, records, mirroredSales, matchedDays, errors };
}

async function freshDashboardStore() {
  rmSync(dashDir, { recursive: true, force: true });
  return openDashboardStore({ dataDir: dashDir });
}

const quietLog = (pauses: { n: number }) => ({
  info: (msg: unknown) => {
    if (typeof msg === "string" && msg.includes("pausing until")) pauses.n++;
    else console.log(msg);
  },
  warn: (...args: unknown[]) => console.warn(...args),
  error: (...args: unknown[]) => console.error(...args),
});

function requestFigures(counter: Counter, v: Volumes) {
  const min = minimumRequests(v);
  // A list's requests: its tail and its day walks (the first mirror, day by day, and any re-walk).
  const requests = (path: string) => counter.get(path) + counter.get(`${path}?day_id`);
  const byResource = Object.fromEntries(
    Object.entries(pathOf).map(([resource, path]) => [
      resource,
      { requests: requests(path), minimum: min.byResource[resource as keyof typeof min.byResource] },
    ]),
  );
  const summaries = counter.get("/reports/sales-summary?day_id") + counter.get("/reports/sales-summary");
  const rewalks =
    counter.get("/transactions?day_id") + counter.get("/topups?day_id") + counter.get("/checkins?day_id");
  return {
    total: counter.total,
    minimum: min.total,
    ratio: counter.total / min.total,
    salesRequests: requests("/transactions"),
    salesMinimum: min.byResource.sales,
    salesRatio: requests("/transactions") / min.byResource.sales,
    summaries,
    rewalks,
    rateLimited: counter.rateLimited,
    noAnswer: counter.noAnswer,
    statuses: Object.fromEntries(counter.statuses),
    byResource,
  };
}

function printRequests(f: ReturnType<typeof requestFigures>) {
  console.log(`  ${"resource".padEnd(20)} ${"requests".padStart(9)} ${"ceil(N/200)".padStart(12)}`);
  for (const [resource, r] of Object.entries(f.byResource))
    console.log(
      `  ${resource.padEnd(20)} ${String(r.requests).padStart(9)} ${String(r.minimum).padStart(12)}`,
    );
  console.log(
    `  ${"sales summaries".padEnd(20)} ${String(f.summaries).padStart(9)} ${"(checksum)".padStart(12)}`,
  );
  if (f.rewalks) console.log(`  ${"day re-walks".padEnd(20)} ${String(f.rewalks).padStart(9)}`);
  console.log(
    `  total ${f.total} requests for a minimum of ${f.minimum}: ratio ${f.ratio.toFixed(4)}; sales ${f.salesRequests} / ${f.salesMinimum} = ${f.salesRatio.toFixed(4)}; 429 answers: ${f.rateLimited}; attempts without an answer: ${f.noAnswer}`,
  );
}

// ── phase: quota lifted, wall clock, over HTTP ────────────────────────────────────────────────

async function lifted(v: Volumes) {
  console.log(`\n[lifted] the API over HTTP on ${apiDir}, a key with 100,000 reads/min, real clock…`);
  const api = await spawnSeededApi(apiDir, scale, 300_000);
  const dash = await freshDashboardStore();
  try {
    // The highest read quota a key can have (RateLimits: read <= 100,000/min).
    const key = await createFullKey(api.url, adminToken(apiDir), 100_000, "bench sync (quota lifted)");
    const counter = new Counter();
    const client = new UpstreamClient({
      baseUrl: `${api.url}/v1`,
      apiKey: key,
      fetch: counter.wrap((url, init) => fetch(url, init)),
      now: systemClock,
    });
    const pauses = { n: 0 };
    const worker = new SyncWorker({ db: dash, client, intervalMs: 30_000, log: quietLog(pauses) });
    const started = performance.now();
    const run = await mirror(worker, dash, v.sales, () => {
      const s = (performance.now() - started) / 1000;
      return `${counter.total} requests (${counter.get("/transactions") + counter.get("/transactions?day_id")} of sales), ${s.toFixed(0)} s`;
    });
    const seconds = (performance.now() - started) / 1000;
    const figures = requestFigures(counter, v);
    printRequests(figures);
    console.log(
      `  ${run.records.toLocaleString("en")} records in ${seconds.toFixed(1)} s: ${(run.records / seconds).toFixed(0)} records/s, ${(run.mirroredSales / seconds).toFixed(0)} sales/s`,
    );
    return {
      cycles: run.cycles,
      records: run.records,
      matchedDays: run.matchedDays,
      errors: run.errors,
      seconds,
      recordsPerSecond: run.records / seconds,
      salesPerSecond: run.mirroredSales / seconds,
      requests: figures,
      quotaPauses: pauses.n,
    };
  } finally {
    await dash.close();
    await api.stop();
    rmSync(dashDir, { recursive: true, force: true });
  }
}

// ── phase: default quota, virtual time, in-process ────────────────────────────────────────────

async function virtual() {
  console.log(
    `\n[virtual] the API in-process on ${apiDir}, default quota (${DEFAULT_READ_LIMIT} reads/min), virtual clock…`,
  );
  const apiDb = await openDb({ dataDir: join(apiDir, "pglite") });
  await migrate(apiDb);
  const dash = await freshDashboardStore();
  try {
    const clock = new VirtualClock();
    const api = await inProcessApi(apiDb, clock);
    const { newKey } = api;
    const { key, rate_limits } = await newKey("bench sync (default quota)");
    if (rate_limits.read !== DEFAULT_READ_LIMIT)
      throw new Error(`read quota ${rate_limits.read}, not the default`);
    const v = await volumes(apiDb);
    const counter = new Counter();
    const client = api.client(key, counter);
    const pauses = { n: 0 };
    const worker = new SyncWorker({
      db: dash,
      client,
      intervalMs: 30_000,
      log: quietLog(pauses),
      now: clock.now,
      sleep: clock.sleep,
    });
    const realStart = performance.now();
    const virtualStart = clock.nowMs();
    const run = await mirror(worker, dash, v.sales, () => {
      const min = (clock.nowMs() - virtualStart) / 60_000;
      return `${counter.total} requests (${counter.get("/transactions") + counter.get("/transactions?day_id")} of sales), ${min.toFixed(1)} virtual min, ${((performance.now() - realStart) / 1000).toFixed(0)} s real`;
    });
    const virtualMinutes = (clock.nowMs() - virtualStart) / 60_000;
    const realSeconds = (performance.now() - realStart) / 1000;
    const figures = requestFigures(counter, v);
    printRequests(figures);
    const fullFloor = figures.total / DEFAULT_READ_LIMIT;
    const perWindow = DEFAULT_READ_LIMIT * WORKER_SHARE;
    const shareFloor = figures.total / perWindow;
    // Fixed 60-s windows: the requests of the last window go out at once, so no client can be
    // faster than (ceil(R / per-window) − 1) whole windows.
    const windowsFloor = Math.ceil(figures.total / perWindow) - 1;
    console.log(
      `  virtual time ${virtualMinutes.toFixed(1)} min (${pauses.n} quota pauses, ${(clock.skippedMs / 60_000).toFixed(1)} min of them skipped; ${realSeconds.toFixed(0)} s real); floor ${fullFloor.toFixed(1)} min at ${DEFAULT_READ_LIMIT}/min, ${shareFloor.toFixed(1)} min at the worker's ${perWindow}/min (${windowsFloor} whole windows): ratio ${(virtualMinutes / shareFloor).toFixed(3)}`,
    );
    return {
      cycles: run.cycles,
      records: run.records,
      matchedDays: run.matchedDays,
      errors: run.errors,
      requests: figures,
      readLimit: rate_limits.read,
      workerShare: WORKER_SHARE,
      virtualMinutes,
      skippedMinutes: clock.skippedMs / 60_000,
      quotaPauses: pauses.n,
      realSeconds,
      floorFullQuotaMinutes: fullFloor,
      floorWorkerShareMinutes: shareFloor,
      floorFixedWindowsMinutes: windowsFloor,
      timeRatio: virtualMinutes / shareFloor,
    };
  } finally {
    await dash.close();
    await apiDb.close();
    rmSync(dashDir, { recursive: true, force: true });
  }
}

/** The API store's volumes, seeding it first if empty. */
const storeVolumes = () => seededApiStore(apiDir, scale);

async function main() {
  const v = await storeVolumes();
  console.log(
    `API store ${apiDir}: ${Object.entries(v)
      .map(([k, n]) => `${n.toLocaleString("en")} ${k}`)
      .join(", ")}`,
  );
  const result: Record<string, unknown> = { bench: "sync-mirror", scale, volumes: v };
  for (const phase of phases) {
    if (phase === "lifted") result.lifted = await lifted(v);
    else if (phase === "virtual") result.virtual = await virtual();
    else throw new Error(`unknown phase ${phase} (BENCH_SYNC_PHASES=lifted,virtual)`);
  }
  console.log(`BENCH_JSON ${JSON.stringify(result)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
