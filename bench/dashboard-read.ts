/**
 * bench/dashboard-read: latency of the live screens' reads on a dashboard store holding 1,000,000
 * mirrored sales (plus 200,000 top-ups and 200,000 door scans) and their aggregates.
 *
 *   npm run bench:dashboard-read      (BENCH_ITERATIONS=200 per handler)
 *
 * The store is built once into .data/bench-dashboard/dashboard by bench/dashboard-store.ts (PGlite on
 * disk, rows generated in SQL in chunks, the aggregate triggers maintaining the aggregates as the
 * sync worker's writes do) and reused by later runs. Two phases, p50/p95/p99 per handler:
 *  1. in-process: each handler's report function (what its route handler answers as JSON);
 *  2. HTTP: `next start` (the current build, SYNC=off) on that store, a signed-in cookie, and
 *     sequential GETs of the route handlers themselves (skipped without a build: BENCH_HTTP=off).
 */
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { overviewReport, salesDayReport, scansDayReport, topupsDayReport } from "@/lib/server/sales/reports";
import { rightNowReport, windowAt } from "@/lib/server/sales/right-now";
import { startBenchServer } from "./bench-server";
import { count, DATA_DIR, dayStart, ensureBenchUser, openBenchDashboardStore } from "./dashboard-store";

const PORT = Number(process.env.BENCH_PORT ?? 3810);
const http = process.env.BENCH_HTTP !== "off";
const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);

const db = await openBenchDashboardStore();

const SALES_IN_STORE = await count(db, "m_sales");
const [agg] = await db.query<{ n: number; total: number }>(
  "select sum(count)::float8 as n, sum(total)::float8 as total from a_sales_hour",
);
console.log(
  `Store: ${SALES_IN_STORE.toLocaleString("en")} sales (${agg?.n.toLocaleString("en")} completed in the aggregates), ${(await count(db, "m_topups")).toLocaleString("en")} top-ups, ${(await count(db, "m_scans")).toLocaleString("en")} scans`,
);

const now = new Date(dayStart(2).getTime() + 6 * 3600_000);
const firstPage = await salesDayReport(db, { dayId: "day_1", now });
const handlers: [string, () => Promise<unknown>][] = [
  ["GET /api/live/overview", () => overviewReport(db, now)],
  ["GET /api/live/sales?day_id=", () => salesDayReport(db, { dayId: "day_1", now })],
  [
    "GET /api/live/sales?day_id=&cursor= (page 2)",
    () => salesDayReport(db, { dayId: "day_1", cursor: firstPage.latest.next_cursor, now }),
  ],
  ["GET /api/live/topups?day_id=", () => topupsDayReport(db, { dayId: "day_1", now })],
  [
    "GET /api/live/topups?direction=withdraw",
    () => topupsDayReport(db, { dayId: "day_1", direction: "withdraw", now }),
  ],
  ["GET /api/live/scans?day_id=", () => scansDayReport(db, { dayId: "day_1", now })],
  ["GET /api/live/right-now", () => rightNowReport(db, "manager", now)],
];

// Right now reads its window's whole minutes from the minute tables and the current minute's
// records through their occurred_at indexes: never a scan of a table, whatever the store's size.
{
  const w = windowAt(now, "Europe/Madrid");
  const partial = new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
  console.log(`\nRight now's window ${w.from.toISOString()} → ${now.toISOString()}: plans (EXPLAIN ANALYZE)`);
  const reads: [string, string, string[]][] = [
    ...["a_now_sales_minute", "a_now_products_minute", "a_now_topups_minute", "a_now_scans_minute"].map(
      (t) =>
        [t, `select * from ${t} where minute >= $1 and minute < $2`, [w.from.toISOString(), partial]] as [
          string,
          string,
          string[],
        ],
    ),
    ...["m_sales", "m_topups", "m_scans"].map(
      (t) =>
        [
          t,
          `select * from ${t} where occurred_at >= $1 and occurred_at < $2`,
          [partial, now.toISOString()],
        ] as [string, string, string[]],
    ),
  ];
  for (const [table, sql, params] of reads) {
    const lines = (await db.query<{ "QUERY PLAN": string }>(`explain analyze ${sql}`, params)).map(
      (r) => r["QUERY PLAN"],
    );
    console.log(
      `  ${table.padEnd(22)} ${lines.find((l) => /Scan/.test(l))?.trim()} · ${lines.at(-1)?.trim()}`,
    );
  }
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const header = () =>
  console.log(
    `${"handler".padEnd(58)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)}`,
  );
let worst = 0;
const results: { phase: string; name: string; p50: number; p95: number; p99: number }[] = [];
let phase = "in-process";

async function time(name: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  worst = Math.max(worst, pct(times, 95));
  results.push({ phase, name, p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99) });
  console.log(
    `${name.padEnd(58)} ${pct(times, 50).toFixed(2).padStart(8)} ${pct(times, 95).toFixed(2).padStart(8)} ${pct(times, 99).toFixed(2).padStart(8)}`,
  );
}

console.log(`\nIn-process: ${iterations} sequential calls per handler (after 10 warm-up calls), PGlite:`);
header();
for (const [name, run] of handlers) await time(name, async () => JSON.stringify(await run()));

if (http && existsSync(".next/BUILD_ID")) {
  await ensureBenchUser(db);
  await db.close();
  const server = await startBenchServer(DATA_DIR, PORT);
  try {
    const { base, cookieHeader: cookie } = server;
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers: { cookie } });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.text();
    };
    const page1 = JSON.parse(await get("/api/live/sales?day_id=day_1")) as {
      latest: { next_cursor: string };
    };
    console.log(
      `\nHTTP: next start (SYNC=off) on the same store, signed-in cookie, ${iterations} sequential GETs per route:`,
    );
    header();
    phase = "http";
    // The current day is the one whose window holds the real now; name the days explicitly.
    for (const path of [
      "/api/live/overview",
      "/api/live/sales?day_id=day_1",
      `/api/live/sales?day_id=day_1&cursor=${page1.latest.next_cursor}`,
      "/api/live/topups?day_id=day_1",
      "/api/live/topups?day_id=day_1&direction=withdraw",
      "/api/live/scans?day_id=day_1",
      "/api/live/right-now",
    ])
      await time(`GET ${path.replace(/cursor=[^&]+/, "cursor=… (page 2)")}`, () => get(path));
  } finally {
    server.stop();
  }
} else {
  await db.close();
  console.log("\nHTTP phase skipped (no .next build, or BENCH_HTTP=off).");
}

console.log(`\nWorst p95: ${worst.toFixed(2)} ms (target < 50 ms) — ${worst < 50 ? "PASS" : "FAIL"}`);
console.log(
  `BENCH_JSON ${JSON.stringify({ bench: "dashboard-read", sales: SALES_IN_STORE, iterations, worstP95: worst, results })}`,
);
process.exit(worst < 50 ? 0 : 1);
