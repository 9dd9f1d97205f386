/**
 * bench/sales-summary: latency of GET /v1/reports/sales-summary on a ~1,000,000-sale store, read
 * from the summary the writes keep (integration-api/store/migrations/002_summary.sql), next to
 * the full scan it replaced (integration-api/testing/summary-scan.ts, run directly on the store).
 *
 *   npm run bench:sales-summary   (BENCH_SCALE=20, BENCH_REQUESTS=200 per path, BENCH_STORES=pglite,postgres,
 *                                  BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test)
 *
 * PGlite: the store of bench/api-read (.data/bench-api-<scale>), seeded on first use (minutes); a
 * store seeded before migration 002 is back-filled when the server starts. PostgreSQL: a database
 * eventops_bench_summary of its own, created, seeded and dropped at the end.
 * For each store: the real server on a port of 4710-4719; BENCH_REQUESTS sequential requests per
 * path (each day, and no day_id) after a warm-up, for a full key and for a key restricted by ticket
 * type and day; then, the server stopped, the old scan once per path and a check that the kept
 * summary equals it. Exits 1 when a p99 reaches 50 ms or a kept summary differs from the scan.
 * The last line, `BENCH_JSON {...}`, is what bench/run-all.ts collects.
 */
import { existsSync, mkdirSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { loadApiConfig } from "../integration-api/config";
import { openStore } from "../integration-api/server";
import { salesSummaryRows } from "../integration-api/store/reports-store";
import { UNRESTRICTED, type Visibility } from "../integration-api/store/sql";
import {
  type ApiProcess,
  adminToken,
  fetchJson,
  freePort,
  spawnApi,
} from "../integration-api/testing/api-process";
import { BenchDatabase } from "../integration-api/testing/pg-database";
import { scanSummaryRows } from "../integration-api/testing/summary-scan";

const scale = Number(process.env.BENCH_SCALE ?? 20);
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const stores = (process.env.BENCH_STORES ?? "pglite,postgres").split(",").map((s) => s.trim());
const pgAdminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const benchDb = new BenchDatabase(pgAdminUrl, "eventops_bench_summary");
const GOAL_P99_MS = 50;

interface PathRow {
  store: string;
  key: "full" | "restricted";
  path: string;
  p50: number;
  p99: number;
  /** The old full scan of the same day (full key only), ms. */
  scan: number | null;
}

interface StoreResult {
  store: string;
  completedSales: number;
  startSeconds: number;
  rows: PathRow[];
  scanMatches: boolean;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (ms: number) => Math.round(ms * 100) / 100;

/** Sequential GETs of one path: p50 and p99 of the whole request, body read, in ms. */
async function latency(url: string, key: string): Promise<{ p50: number; p99: number }> {
  const get = async () => {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${body}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 10; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < requests; i++) times.push(await get());
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) };
}

async function createKey(url: string, token: string, restrictions?: object): Promise<string> {
  const created = await fetchJson<{ key: string }>(`${url}/admin/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "bench summary",
      scopes: ["reports.read", "event.read"],
      activate: true,
      rate_limits: { read: 100_000 },
      ...(restrictions ? { restrictions } : {}),
    }),
  });
  return created.key;
}

async function benchStore(store: "pglite" | "postgres"): Promise<StoreResult> {
  const dataDir = store === "pglite" ? `.data/bench-api-${scale}` : `.data/bench-summary-pg-${scale}`;
  mkdirSync(dataDir, { recursive: true });
  const env: Record<string, string> = {
    API_PORT: String(await freePort(4710, 4719)),
    API_DATA_DIR: dataDir,
    API_SEED: "demo",
    API_SEED_SCALE: String(scale),
    API_SIMULATOR: "off",
    API_ENVIRONMENT: "test",
  };
  if (store === "postgres") {
    await benchDb.recreate();
    env.API_DATABASE_URL = benchDb.url;
  }
  let api: ApiProcess | null = null;
  try {
    console.log(
      `\n[${store}] starting on ${dataDir} (scale ${scale}; seeding or back-filling takes minutes)...`,
    );
    const started = performance.now();
    api = await spawnApi(env, { startTimeoutMs: 1_800_000, echo: `  [${store}] ` });
    const startSeconds = (performance.now() - started) / 1000;
    const token = adminToken(dataDir);
    const full = await createKey(api.url, token);
    const days = (
      await fetchJson<{ data: { id: string }[] }>(`${api.url}/v1/days`, {
        headers: { authorization: `Bearer ${full}` },
      })
    ).data.map((d) => d.id);
    const types = (
      await fetchJson<{ data: { id: string }[] }>(`${api.url}/v1/ticket-types`, {
        headers: { authorization: `Bearer ${full}` },
      })
    ).data.map((t) => t.id);
    const restrictedVisibility: Visibility = { ticketTypeIds: types.slice(0, 3), dayIds: days.slice(0, 3) };
    const restricted = await createKey(api.url, token, {
      ticket_type_ids: restrictedVisibility.ticketTypeIds,
      day_ids: restrictedVisibility.dayIds,
    });
    const summary = await fetchJson<{ sales: { count: number } }>(`${api.url}/v1/reports/sales-summary`, {
      headers: { authorization: `Bearer ${full}` },
    });
    console.log(`[${store}] ${summary.sales.count} completed sales; ${requests} requests per path`);

    const rows: PathRow[] = [];
    const paths = (visibleDays: string[]) => [null, ...visibleDays];
    for (const [name, key, visibleDays] of [
      ["full", full, days],
      ["restricted", restricted, restrictedVisibility.dayIds!],
    ] as const) {
      for (const day of paths(visibleDays)) {
        const path = `/v1/reports/sales-summary${day ? `?day_id=${day}` : ""}`;
        const { p50, p99 } = await latency(`${api.url}${path}`, key);
        rows.push({ store, key: name, path, p50, p99, scan: null });
        console.log(`[${store}] ${name} ${path}: p50 ${p50} ms, p99 ${p99} ms`);
      }
    }
    await api.stop();
    api = null;

    // The old scan, run directly on the store, and the kept summary compared with it.
    const db = await openStore(loadApiConfig(env));
    let scanMatches = true;
    try {
      for (const [v, name] of [
        [UNRESTRICTED, "full"],
        [restrictedVisibility, "restricted"],
      ] as const) {
        for (const day of paths(name === "full" ? days : restrictedVisibility.dayIds!)) {
          const t0 = performance.now();
          const scanned = await scanSummaryRows(db, v, day);
          const scanMs = performance.now() - t0;
          const kept = await salesSummaryRows(db, v, day);
          if (JSON.stringify(kept) !== JSON.stringify(scanned)) {
            scanMatches = false;
            console.log(`[${store}] ${name} day ${day ?? "all"}: the kept summary differs from the scan`);
          }
          const path = `/v1/reports/sales-summary${day ? `?day_id=${day}` : ""}`;
          const row = rows.find((r) => r.key === name && r.path === path)!;
          row.scan = round(scanMs);
        }
      }
    } finally {
      await db.close();
    }
    return { store, completedSales: summary.sales.count, startSeconds, rows, scanMatches };
  } finally {
    await api?.stop();
    if (store === "postgres") await benchDb.drop();
  }
}

async function main() {
  const results: StoreResult[] = [];
  for (const store of stores) {
    if (store !== "pglite" && store !== "postgres") throw new Error(`unknown store ${store}`);
    results.push(await benchStore(store));
  }
  console.log();
  console.table(
    results.flatMap((r) =>
      r.rows.map((row) => ({
        store: row.store,
        key: row.key,
        path: row.path,
        "p50 ms": row.p50,
        "p99 ms": row.p99,
        "old scan ms": row.scan,
      })),
    ),
  );
  const worst = Math.max(...results.flatMap((r) => r.rows.map((row) => row.p99)));
  const matches = results.every((r) => r.scanMatches);
  for (const r of results)
    console.log(
      `[${r.store}] ${r.completedSales} completed sales; server ready in ${r.startSeconds.toFixed(1)} s; kept summary ${r.scanMatches ? "equals" : "DIFFERS FROM"} the scan`,
    );
  const met = worst < GOAL_P99_MS && matches;
  console.log(
    `Goal: p99 under ${GOAL_P99_MS} ms on every path -> worst ${worst} ms: ${met ? "met" : "NOT met"}`,
  );
  console.log(
    `BENCH_JSON ${JSON.stringify({ bench: "sales-summary", scale, requests, goalP99Ms: GOAL_P99_MS, worstP99: worst, results })}`,
  );
  if (!met) process.exitCode = 1;
}

if (!existsSync("package.json")) throw new Error("run from the repository root");
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
