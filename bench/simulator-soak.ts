/**
 * bench/simulator-soak: the terminal simulator in the real server, in real time, then the checks
 * a reconciling client relies on.
 *
 *   npm run soak:simulator          (SOAK_MINUTES=10, SOAK_RATE=20 events/s, SOAK_SCALE=1)
 *
 * Starts the service on a fresh data dir with API_SIMULATOR=on, lets it run, stops it (SIGTERM,
 * the simulator prints its stats), runs verify-ledger on the store, restarts it with the simulator
 * off and compares, for every day and for the whole event, GET /v1/reports/sales-summary with the
 * sums of the paginated /v1/transactions and /v1/topups. Exits 1 when anything differs.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  adminToken,
  createFullKey,
  fetchJson,
  runVerifyLedger,
  spawnApi,
  walkList,
} from "../integration-api/testing/api-process";
import { canonicalSummary, summaryFromLists } from "../integration-api/testing/summary-model";
import type { SalesSummary, Topup, Transaction } from "../lib/contract/resources";

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const rate = Number(process.env.SOAK_RATE ?? 20);
const scale = Number(process.env.SOAK_SCALE ?? 1);
const port = Number(process.env.SOAK_PORT ?? 4350);
const keep = process.env.SOAK_KEEP === "1";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isoDiff(a: string, b: string) {
  return new Date(a).getTime() - new Date(b).getTime();
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "eventops-soak-"));
  const env = {
    API_PORT: String(port),
    API_DATA_DIR: dataDir,
    API_SEED: "demo",
    API_SEED_SCALE: String(scale),
    API_ENVIRONMENT: "test",
  };
  let failed = false;
  try {
    console.log(`Soak: ${minutes} min at ${rate} events/s, seed scale ${scale}, store ${dataDir}`);
    const seedStart = Date.now();
    const api = await spawnApi(
      { ...env, API_SIMULATOR: "on", API_SIMULATOR_RATE: String(rate) },
      { startTimeoutMs: 30 * 60_000 },
    );
    console.log(`started (seed and start ${((Date.now() - seedStart) / 1000).toFixed(1)} s)`);
    const soakStart = new Date();
    const end = soakStart.getTime() + minutes * 60_000;
    let printed = 0;
    while (Date.now() < end) {
      await sleep(Math.min(60_000, end - Date.now()));
      const lines = api
        .output()
        .split("\n")
        .filter((l) => l.includes("simulator:"));
      for (const line of lines.slice(printed)) console.log(`  ${line}`);
      printed = lines.length;
      console.log(`  ${((Date.now() - soakStart.getTime()) / 60_000).toFixed(1)} min elapsed`);
    }
    const stopAsked = Date.now();
    const code = await api.stop(15 * 60_000);
    const soakEnd = new Date();
    const statsLine = /simulator stopped: (\{.*\})/.exec(api.output());
    const stats = statsLine ? (JSON.parse(statsLine[1]) as Record<string, number>) : null;
    const ranSeconds = (stopAsked - soakStart.getTime()) / 1000;
    console.log(
      `\nstopped (exit ${code}; the simulator's queue drained in ${((soakEnd.getTime() - stopAsked) / 1000).toFixed(1)} s)`,
    );
    if (!stats) {
      failed = true;
      console.log("simulator stats: not printed by the service");
    } else {
      console.log(
        `events made: ${stats.events} in ${ranSeconds.toFixed(0)} s (${(stats.events / ranSeconds).toFixed(1)}/s, asked ${rate}/s)`,
      );
      console.log(`simulator stats: ${JSON.stringify(stats)}`);
    }

    const ledger = await runVerifyLedger(env);
    console.log(`\nverify-ledger (exit ${ledger.code}): ${ledger.output}`);
    if (ledger.code !== 0) failed = true;

    const reader = await spawnApi({ ...env, API_SIMULATOR: "off" });
    try {
      const key = await createFullKey(reader.url, adminToken(dataDir), 100_000, "soak reader");
      const auth = { headers: { authorization: `Bearer ${key}` } };
      const { data: days } = await fetchJson<{ data: { id: string; name: string }[] }>(
        `${reader.url}/v1/days`,
        auth,
      );
      const rows = [];
      let offline = 0;
      let written = { sales: 0, topups: 0 };
      for (const day of [
        ...days.map((d) => ({ id: d.id, name: d.name })),
        { id: null, name: "whole event" },
      ]) {
        const filter = day.id ? `?day_id=${day.id}` : "";
        const summary = await fetchJson<SalesSummary>(
          `${reader.url}/v1/reports/sales-summary${filter}`,
          auth,
        );
        const sales = await walkList<Transaction>(`${reader.url}/v1/transactions${filter}`, key);
        const topups = await walkList<Topup>(`${reader.url}/v1/topups${filter}`, key);
        const equal =
          JSON.stringify(canonicalSummary(summary)) === JSON.stringify(summaryFromLists(sales, topups));
        if (!equal) failed = true;
        if (!day.id) {
          const during = <T extends { created_at: string }>(r: T[]) =>
            r.filter((x) => new Date(x.created_at) >= soakStart);
          written = { sales: during(sales).length, topups: during(topups).length };
          offline = during(sales).filter((s) => isoDiff(s.created_at, s.occurred_at) > 60_000).length;
        }
        rows.push({
          day: day.name,
          "sales (completed)": summary.sales.count,
          "sales total": summary.sales.total,
          "top-ups": summary.topups.count,
          withdrawals: summary.withdrawals.count,
          bonuses: summary.bonuses.count,
          "summary = lists' sums": equal ? "yes" : "NO",
        });
      }
      console.log("\nSales summary against the sums of the paginated lists:");
      console.table(rows);
      const review = await walkList<{ id: string }>(`${reader.url}/v1/wristbands?status=pending_review`, key);
      console.log(
        `written during the soak: ${written.sales} sales (${offline} synced more than 60 s after they happened), ${written.topups} top-up records; ${review.length} wristbands pending_review`,
      );
    } finally {
      await reader.stop();
    }
  } finally {
    if (keep) console.log(`store kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nsoak: ${failed ? "FAILED" : "ok"}`);
  if (failed) process.exitCode = 1;
}

if (!existsSync("package.json")) throw new Error("run from the repository root");
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
