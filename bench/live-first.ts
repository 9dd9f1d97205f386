/**
 * bench/live-first: how soon the console shows the truth (issue 12).
 *
 *   npm run bench:live-first   (BENCH_LIVE_SCALES=1,20  BENCH_LAG_S=300  BENCH_LAG_RATE=20)
 *
 * Cold start (virtual time, as bench/sync-mirror's "virtual" phase): the Integration API in-process
 * on the store seeded at each scale, the default read quota (120/min) on the real rate limiter, a
 * fresh dashboard store, the real SyncWorker stepping its own loop (cycles, tail polls, backfill
 * pages). Limiter, client and worker share a clock that skips every sleep, so the times are what a
 * real run takes without the waiting. Measured from the first request: today's totals served by
 * `overviewReport` (what `GET /api/live/overview` answers) equal to today's sales summary; today's
 * records all mirrored (against the floor: Σ ceil(N/200) of today's sales, top-ups and scans at the
 * worker's 72 requests/min); every day mirrored.
 *
 * Steady state (wall clock): the API as its own process with the terminal simulator at 20 events/s
 * and a key with the default quota, the worker on the real clock (cycle 30 s, tail polls 3 s). A
 * minute after the first mirror is done, for BENCH_LAG_S seconds the mirror is read every 250 ms: a
 * sale's lag is when it was first seen in the mirror minus its `created_at` (its arrival upstream).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { migrate } from "@/integration-api/store/migrate";
import { adminToken, createFullKey, freePort, spawnApi } from "@/integration-api/testing/api-process";
import type { SalesSummary } from "@/lib/contract";
import { systemClock } from "@/lib/contract/clock";
import { type Db, openDb } from "@/lib/db/db";
import { overviewReport } from "@/lib/server/sales/reports";
import { openDashboardStore } from "@/lib/server/store";
import { backfillRows } from "@/lib/server/store/backfill";
import { SyncWorker } from "@/lib/server/sync/worker";
import { UpstreamClient } from "@/lib/server/upstream/client";
import { Counter, inProcessApi, seededApiStore, VirtualClock } from "./sync-support";

const scales = (process.env.BENCH_LIVE_SCALES ?? "1,20").split(",").map(Number);
const lagSeconds = Number(process.env.BENCH_LAG_S ?? 300);
const lagRate = Number(process.env.BENCH_LAG_RATE ?? 20);
const WORKER_PER_MINUTE = 72;
const quiet = {
  info() {},
  warn: (...a: unknown[]) => console.warn(...a),
  error: (...a: unknown[]) => console.error(...a),
};

async function freshStore(dir: string) {
  rmSync(dir, { recursive: true, force: true });
  return openDashboardStore({ dataDir: dir });
}

/** Today's records upstream per resource, as the worker will walk them. */
async function todayVolumes(apiDb: Db, dayId: string) {
  const [row] = await apiDb.query<{ sales: number; topups: number; scans: number }>(
    `select (select count(*) from sales where day_id = $1)::int as sales,
       (select count(*) from topups where day_id = $1)::int as topups,
       (select count(*) from scans where day_id = $1)::int as scans`,
    [dayId],
  );
  return row;
}

async function coldStart(scale: number) {
  const apiDir = `.data/bench-api-${scale}`;
  const volumes = await seededApiStore(apiDir, scale);
  console.log(
    `\n[cold start] scale ${scale}: ${volumes.sales.toLocaleString("en")} sales upstream, default quota…`,
  );
  const apiDb = await openDb({ dataDir: join(apiDir, "pglite") });
  await migrate(apiDb);
  const dashDir = `.data/bench-live-first-${scale}`;
  const dash = await freshStore(dashDir);
  try {
    // The store is seeded once and reused: its "today" is the day that was running when it was
    // seeded. The clock starts just after its newest sale, so today holds that day's records
    // whatever the hour of this run (at 13:00 in Madrid a store seeded at 11:00 would have a new,
    // empty day running).
    const [{ newest }] = await apiDb.query<{ newest: string }>(
      "select max(occurred_at) as newest from sales",
    );
    const clock = new VirtualClock(Date.parse(newest) + 1000);
    const api = await inProcessApi(apiDb, clock);
    const { app, newKey } = api;
    const { key } = await newKey("bench live-first (default quota)");
    // The referee reads the truth with a key of its own (its own quota bucket).
    const { key: referee } = await newKey("bench live-first referee");
    const summaryOf = async (dayId: string) =>
      (await (
        await app.request(`/v1/reports/sales-summary?day_id=${dayId}`, {
          headers: { authorization: `Bearer ${referee}` },
        })
      ).json()) as SalesSummary;
    const counter = new Counter();
    const client = api.client(key, counter);
    const worker = new SyncWorker({
      db: dash,
      client,
      intervalMs: 30_000,
      log: quiet,
      now: clock.now,
      sleep: clock.sleep,
    });
    const t0 = clock.nowMs();
    const realStart = performance.now();
    const at = { totals: null as number | null, today: null as number | null, whole: null as number | null };
    let todayId: string | null = null;
    let todaySummary: SalesSummary | null = null;
    while (at.whole === null) {
      await worker.step();
      const elapsed = (clock.nowMs() - t0) / 1000;
      if (at.totals === null) {
        const overview = await overviewReport(dash, clock.now());
        if (overview.day) {
          todayId = overview.day.id;
          todaySummary ??= await summaryOf(todayId);
          const { count, total, total_base, total_tax } = overview.totals;
          const s = todaySummary.sales;
          if (
            count === s.count &&
            total === s.total &&
            total_base === s.total_base &&
            total_tax === s.total_tax
          )
            at.totals = elapsed;
        }
      }
      const rows = await backfillRows(dash);
      if (
        at.today === null &&
        todayId &&
        rows.some((r) => r.dayId === todayId) &&
        rows.filter((r) => r.dayId === todayId).every((r) => r.done)
      )
        at.today = elapsed;
      if (rows.length > 0 && rows.every((r) => r.done) && at.today !== null) at.whole = elapsed;
    }
    const today = await todayVolumes(apiDb, todayId as string);
    const pages = (n: number) => Math.max(1, Math.ceil(n / 200));
    const floorSeconds =
      ((pages(today.sales) + pages(today.topups) + pages(today.scans)) / WORKER_PER_MINUTE) * 60;
    const result = {
      scale,
      sales: volumes.sales,
      today,
      totalsSeconds: at.totals,
      todaySeconds: at.today,
      todayFloorSeconds: floorSeconds,
      todayRatio: (at.today as number) / floorSeconds,
      wholeSeconds: at.whole,
      requests: counter.total,
      rateLimited: counter.rateLimited,
      realSeconds: (performance.now() - realStart) / 1000,
    };
    console.log(
      `  today's totals after ${at.totals?.toFixed(1)} s; today's records after ${(at.today as number).toFixed(0)} s (floor ${floorSeconds.toFixed(0)} s, ratio ${result.todayRatio.toFixed(3)}); whole event after ${((at.whole as number) / 60).toFixed(1)} min; ${counter.total} requests, ${counter.rateLimited} × 429; ${result.realSeconds.toFixed(0)} s real`,
    );
    return result;
  } finally {
    await dash.close();
    await apiDb.close();
    rmSync(dashDir, { recursive: true, force: true });
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;

async function steadyState() {
  const apiDir = ".data/bench-live-lag";
  rmSync(apiDir, { recursive: true, force: true });
  console.log(
    `\n[steady state] the API with its simulator at ${lagRate} events/s, default quota, ${lagSeconds} s…`,
  );
  const api = await spawnApi(
    {
      API_PORT: String(await freePort(4400, 4499)),
      API_DATA_DIR: apiDir,
      API_SEED: "demo",
      API_SEED_SCALE: "0.1",
      API_SIMULATOR: "on",
      API_SIMULATOR_RATE: String(lagRate),
      API_ENVIRONMENT: "test",
    },
    { startTimeoutMs: 300_000, echo: "  " },
  );
  const dashDir = ".data/bench-live-lag-dash";
  const dash = await freshStore(dashDir);
  try {
    const key = await createFullKey(api.url, adminToken(apiDir), 120, "bench live-first (steady state)");
    const counter = new Counter();
    const client = new UpstreamClient({
      baseUrl: `${api.url}/v1`,
      apiKey: key,
      fetch: counter.wrap((url, init) => fetch(url, init)),
      now: systemClock,
    });
    const worker = new SyncWorker({ db: dash, client, intervalMs: 30_000, tailIntervalMs: 3000, log: quiet });
    worker.start();
    const warm = performance.now();
    for (;;) {
      const rows = await backfillRows(dash);
      if (rows.length > 0 && rows.every((r) => r.done)) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    // The first mirror spends most of its last window: a minute more, and the worker runs as it
    // does all evening.
    console.log(
      `  first mirror done in ${((performance.now() - warm) / 1000).toFixed(0)} s; a minute to settle, then measuring…`,
    );
    await new Promise((r) => setTimeout(r, 60_000));
    const before = counter.rateLimited;
    const requestsBefore = counter.total;
    const [{ last }] = await dash.query<{ last: string | null }>("select max(id) as last from m_sales");
    let cursor = last ?? "";
    const lags: number[] = [];
    const end = Date.now() + lagSeconds * 1000;
    while (Date.now() < end) {
      const seen = Date.now();
      const rows = await dash.query<{ id: string; created_at: string }>(
        "select id, created_at from m_sales where id > $1 order by id",
        [cursor],
      );
      for (const r of rows) lags.push((seen - Date.parse(r.created_at)) / 1000);
      if (rows.length) cursor = rows[rows.length - 1].id;
      await new Promise((r) => setTimeout(r, 250));
    }
    await worker.stop();
    const sorted = [...lags].sort((a, b) => a - b);
    const result = {
      rate: lagRate,
      seconds: lagSeconds,
      sales: lags.length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted.at(-1) ?? Number.NaN,
      rateLimited: counter.rateLimited - before,
      requestsPerMinute: ((counter.total - requestsBefore) / lagSeconds) * 60,
    };
    console.log(
      `  ${lags.length} sales: lag p50 ${result.p50.toFixed(2)} s, p95 ${result.p95.toFixed(2)} s, max ${result.max.toFixed(2)} s; ${result.rateLimited} × 429; ${result.requestsPerMinute.toFixed(1)} requests/min`,
    );
    return result;
  } finally {
    await dash.close();
    await api.stop();
    rmSync(dashDir, { recursive: true, force: true });
    rmSync(apiDir, { recursive: true, force: true });
  }
}

async function main() {
  const cold = [];
  for (const scale of scales) cold.push(await coldStart(scale));
  const steady = lagSeconds > 0 ? await steadyState() : null;
  console.log(`BENCH_JSON ${JSON.stringify({ bench: "live-first", cold, steady })}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
