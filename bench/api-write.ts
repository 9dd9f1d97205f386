/**
 * bench/api-write: sustained write throughput of the Integration API and the latency of an
 * idempotent replay, on the embedded PGlite store and on PostgreSQL.
 *
 *   npm run bench:api-write     (BENCH_DURATION_S=10, BENCH_CONNECTIONS=10, BENCH_SCALE=0.2,
 *                                BENCH_STORES=pglite,postgres, BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test)
 *
 * For each store: a fresh store (a temp PGlite dir; a fresh database eventops_bench_write created
 * beside BENCH_PG_URL's and dropped at the end), the real server as a child process, a key with
 * every scope and 100000/min in every bucket. Then, BENCH_DURATION_S each:
 *  - POST /v1/topups, a fresh Idempotency-Key per request, amounts below every bonus tier, spread
 *    over every active wristband;
 *  - POST /v1/tickets/{code}/check-in over distinct active tickets (created before, 500 per batch)
 *    with fresh NFC codes;
 *  - one stored top-up request repeated (same key, same body): every answer must be the stored
 *    one with Idempotent-Replayed: true.
 * Any non-2xx answer is reported; verify-ledger runs on the store after each.
 */
import { randomInt, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import {
  type ApiProcess,
  adminToken,
  createFullKey,
  fetchJson,
  freePort,
  runVerifyLedger,
  spawnApi,
  walkList,
} from "../integration-api/testing/api-process";

const duration = Number(process.env.BENCH_DURATION_S ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const scale = process.env.BENCH_SCALE ?? "0.2";
const stores = (process.env.BENCH_STORES ?? "pglite,postgres").split(",").map((s) => s.trim());
const pgAdminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const BENCH_DB = "eventops_bench_write";

interface Row {
  store: string;
  operation: string;
  requests: number;
  "req/s": number;
  "p50 ms": number;
  "p99 ms": number;
  "non-2xx": string;
}

const rows: Row[] = [];
const notes: string[] = [];
let failed = false;

function pgUrlFor(database: string): string {
  const url = new URL(pgAdminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onAdminDb(sql: string) {
  const client = new pg.Client({ connectionString: pgAdminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Measured {
  result: autocannon.Result;
  statuses: Record<string, number>;
}

function measure(
  base: string,
  headers: Record<string, string>,
  request: autocannon.Request,
  onResponse?: (status: number, body: string, headers: Record<string, unknown>) => void,
): Promise<Measured> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        duration,
        headers: { ...headers, "content-type": "application/json" },
        requests: [
          {
            ...request,
            ...(onResponse
              ? {
                  onResponse: (status: number, body: string, _ctx: object, h: object | undefined) =>
                    onResponse(status, body, (h ?? {}) as Record<string, unknown>),
                }
              : {}),
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        const statuses: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
          statuses[code] = stat.count ?? 0;
        }
        resolve({ result, statuses });
      },
    );
  });
}

function record(store: string, operation: string, m: Measured, expected: string[] = []) {
  const other = Object.entries(m.statuses).filter(([code]) => !code.startsWith("2"));
  const unexpected = other.filter(([code]) => !expected.includes(code));
  if (unexpected.length > 0 || m.result.errors > 0 || m.result.timeouts > 0) failed = true;
  const parts = other.map(([code, n]) => `${n}×${code}${expected.includes(code) ? " (expected)" : ""}`);
  if (m.result.errors) parts.push(`${m.result.errors} errors`);
  if (m.result.timeouts) parts.push(`${m.result.timeouts} timeouts`);
  rows.push({
    store,
    operation,
    requests: m.result.requests.total,
    "req/s": Math.round(m.result.requests.average),
    "p50 ms": m.result.latency.p50,
    "p99 ms": m.result.latency.p99,
    "non-2xx": parts.length ? parts.join(", ") : "none",
  });
}

/** Creates `count` active tickets (500 per call) and returns their codes. */
async function createTickets(api: ApiProcess, key: string, count: number, tag: string): Promise<string[]> {
  const auth = { authorization: `Bearer ${key}` };
  const types = await fetchJson<{ data: { id: string }[] }>(`${api.url}/v1/ticket-types`, { headers: auth });
  const days = await fetchJson<{ data: { id: string }[] }>(`${api.url}/v1/days`, { headers: auth });
  const codes: string[] = [];
  for (let batch = 0; codes.length < count; batch++) {
    const size = Math.min(500, count - codes.length);
    const tickets = Array.from({ length: size }, (_, i) => ({
      code: `BW${tag}-${batch}-${i}`,
      ticket_type_id: types.data[(batch + i) % types.data.length].id,
      attendee: { name: `Bench ${batch}.${i}`, email: `bench-${batch}-${i}@example.com` },
      valid_days: days.data.map((d) => d.id),
    }));
    await fetchJson(`${api.url}/v1/tickets`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ tickets }),
    });
    codes.push(...tickets.map((t) => t.code));
  }
  return codes;
}

async function benchStore(store: "pglite" | "postgres") {
  const dataDir = mkdtempSync(join(tmpdir(), "eventops-bench-write-"));
  const env: Record<string, string> = {
    API_PORT: String(await freePort(4360, 4379)),
    API_DATA_DIR: dataDir,
    API_SEED: "demo",
    API_SEED_SCALE: scale,
    API_SIMULATOR: "off",
    API_ENVIRONMENT: "test",
  };
  if (store === "postgres") {
    await onAdminDb(`drop database if exists ${BENCH_DB}`);
    await onAdminDb(`create database ${BENCH_DB}`);
    env.API_DATABASE_URL = pgUrlFor(BENCH_DB);
  }
  let api: ApiProcess | null = null;
  try {
    console.log(`\n[${store}] seeding (scale ${scale}) and starting...`);
    api = await spawnApi(env, { startTimeoutMs: 600_000 });
    const key = await createFullKey(api.url, adminToken(dataDir), 100_000, "bench write");
    const auth = { authorization: `Bearer ${key}` };
    const wristbands = (
      await walkList<{ id: string; nfc: string }>(`${api.url}/v1/wristbands?status=active`, key)
    ).map((w) => w.nfc);
    console.log(`[${store}] ${wristbands.length} active wristbands; top-ups for ${duration} s...`);

    const topups = await measure(api.url, auth, {
      method: "POST",
      path: "/v1/topups",
      setupRequest: (req) => ({
        ...req,
        headers: { ...req.headers, "idempotency-key": randomUUID() },
        body: JSON.stringify({
          code: wristbands[randomInt(wristbands.length)],
          amount: randomInt(500, 1901),
          payment_method: "card",
        }),
      }),
    });
    record(store, "POST /v1/topups", topups);

    // Distinct active tickets: twice what the top-up rate suggests, so the pool does not run dry.
    const needed = Math.max(2000, Math.ceil(topups.result.requests.average * duration * 2));
    const started = Date.now();
    const codes = await createTickets(api, key, needed, store === "pglite" ? "L" : "P");
    const batchSeconds = (Date.now() - started) / 1000;
    notes.push(
      `[${store}] ${codes.length} tickets created in ${Math.ceil(codes.length / 500)} batches of ≤500 in ${batchSeconds.toFixed(1)} s (${Math.round(codes.length / batchSeconds)} tickets/s)`,
    );
    console.log(`[${store}] ${codes.length} tickets ready; check-ins for ${duration} s...`);
    let next = 0;
    let exhausted = 0;
    const checkIns = await measure(api.url, auth, {
      method: "POST",
      path: "/v1/tickets/x/check-in",
      setupRequest: (req) => {
        if (next >= codes.length) exhausted++;
        const code = codes[next++ % codes.length];
        return {
          ...req,
          path: `/v1/tickets/${code}/check-in`,
          headers: { ...req.headers, "idempotency-key": randomUUID() },
          body: JSON.stringify({
            wristband: { nfc: `BENCH${randomUUID().replaceAll("-", "").slice(0, 20).toUpperCase()}` },
          }),
        };
      },
    });
    record(store, "POST /v1/tickets/{code}/check-in", checkIns, exhausted > 0 ? ["409"] : []);
    if (exhausted)
      notes.push(`[${store}] the ticket pool ran dry: ${exhausted} check-ins reused a ticket (409)`);

    // One stored request, replayed.
    const replayKey = randomUUID();
    const replayBody = JSON.stringify({ code: wristbands[0], amount: 700, payment_method: "cash" });
    const first = await fetch(`${api.url}/v1/topups`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": replayKey },
      body: replayBody,
    });
    const stored = await first.text();
    if (first.status !== 201) throw new Error(`the top-up to replay answered ${first.status}: ${stored}`);
    console.log(`[${store}] idempotent replays for ${duration} s...`);
    let notReplayed = 0;
    let differentBody = 0;
    const replays = await measure(
      api.url,
      { ...auth, "idempotency-key": replayKey },
      { method: "POST", path: "/v1/topups", body: replayBody },
      (status, body, headers) => {
        const flag = Object.entries(headers).find(([k]) => k.toLowerCase() === "idempotent-replayed")?.[1];
        if (status === 201 && flag !== "true") notReplayed++;
        if (status === 201 && body !== stored) differentBody++;
      },
    );
    record(store, "replay POST /v1/topups (same key)", replays);
    if (notReplayed || differentBody) {
      failed = true;
      notes.push(
        `[${store}] replays: ${notReplayed} without Idempotent-Replayed, ${differentBody} other bodies`,
      );
    }

    const code = await api.stop();
    api = null;
    const ledger = await runVerifyLedger(env);
    notes.push(`[${store}] server exit ${code}; verify-ledger (exit ${ledger.code}): ${ledger.output}`);
    if (ledger.code !== 0) failed = true;
  } finally {
    await api?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (store === "postgres") await onAdminDb(`drop database if exists ${BENCH_DB}`);
  }
}

async function main() {
  console.log(
    `bench/api-write: ${duration} s per run, ${connections} connections, seed scale ${scale}, stores ${stores.join(", ")}`,
  );
  for (const store of stores) {
    if (store !== "pglite" && store !== "postgres") throw new Error(`unknown store ${store}`);
    await benchStore(store);
  }
  console.log();
  console.table(rows);
  for (const note of notes) console.log(note);
  console.log(`\nbench/api-write: ${failed ? "FAILED (see non-2xx and notes)" : "ok"}`);
  if (failed) process.exitCode = 1;
}

if (!existsSync("package.json")) throw new Error("run from the repository root");
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
