/**
 * bench/api-read: read latency of the Integration API on a ~1,000,000-sale store, side by side
 * with a bare route that returns fixed JSON of the same size.
 *
 *   npm run bench:api-read            (BENCH_SCALE=20 by default; BENCH_DURATION_S=10)
 *
 * The store is seeded once into .data/bench-api-<scale> and reused by later runs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { type ApiProcess, spawnApi } from "../integration-api/testing/api-process";

const scale = Number(process.env.BENCH_SCALE ?? 20);
const duration = Number(process.env.BENCH_DURATION_S ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const dataDir = `.data/bench-api-${scale}`;
const apiPort = 4110;
const barePort = 4111;

/** Node runs the script itself (tsx as a loader, no npx in between), so stopping it stops the server. */
function start(script: string, args: string[], ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
      if (ready.test(output)) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

function run(name: string, url: string, headers: Record<string, string>, paths?: string[]) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    let i = 0;
    autocannon(
      {
        url,
        connections,
        duration,
        headers,
        ...(paths
          ? {
              requests: [
                {
                  setupRequest: (req: autocannon.Request) => ({ ...req, path: paths[i++ % paths.length] }),
                },
              ],
            }
          : {}),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  }).then((result) => {
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
    }
    return result;
  });
}

async function main() {
  mkdirSync(dataDir, { recursive: true });
  console.log(
    `Preparing the API on ${dataDir} (scale ${scale}; the first run seeds it, which takes minutes)...`,
  );
  const api: ApiProcess = await spawnApi(
    {
      API_PORT: String(apiPort),
      API_DATA_DIR: dataDir,
      API_SEED: "demo",
      API_SEED_SCALE: String(scale),
      API_SIMULATOR: "off",
      API_ENVIRONMENT: "test",
    },
    { startTimeoutMs: 900_000, echo: "  " },
  );
  const children: ChildProcess[] = [];
  try {
    const base = api.url;
    const adminToken = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
    const { key } = await json<{ key: string }>(`${base}/admin/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "bench",
        scopes: ["tickets.read", "cashless.read", "reports.read"],
        rate_limits: { read: 100000 },
      }),
    });
    const auth = { authorization: `Bearer ${key}` };
    const summary = await json<{ sales: { count: number } }>(`${base}/v1/reports/sales-summary`, {
      headers: auth,
    });
    const tickets = await json<{ data: { code: string }[] }>(`${base}/v1/tickets?limit=200`, {
      headers: auth,
    });
    const codes = tickets.data.map((t) => `/v1/tickets/${encodeURIComponent(t.code)}`);
    const ticketBody = await (await fetch(`${base}${codes[0]}`, { headers: auth })).text();
    const listBody = await (await fetch(`${base}/v1/transactions?limit=200`, { headers: auth })).text();

    const bodiesFile = join(dataDir, "bare-bodies.json");
    writeFileSync(bodiesFile, JSON.stringify({ ticket: ticketBody, transactions: listBody }));
    children.push(await start("bench/bare-server.ts", [bodiesFile, String(barePort)], /bare server/));
    const bare = `http://127.0.0.1:${barePort}`;

    console.log(
      `\nStore: ${summary.sales.count} completed sales. ${duration} s per run, ${connections} connections.\n`,
    );
    const runs = [
      [
        "GET /tickets/{code}",
        await run("ticket", base, auth, codes),
        await run("bare ticket", `${bare}/fixed/ticket`, {}),
        ticketBody.length,
      ],
      [
        "GET /transactions?limit=200",
        await run("transactions", `${base}/v1/transactions?limit=200`, auth),
        await run("bare list", `${bare}/fixed/transactions`, {}),
        listBody.length,
      ],
    ] as const;

    const rows = runs.map(([name, real, baseline, size]) => ({
      endpoint: name,
      "body bytes": size,
      "api req/s": Math.round(real.requests.average),
      "api p50 ms": real.latency.p50,
      "api p99 ms": real.latency.p99,
      "bare req/s": Math.round(baseline.requests.average),
      "bare p99 ms": baseline.latency.p99,
      "req/s ratio api/bare": (real.requests.average / baseline.requests.average).toFixed(2),
      "p99 ratio api/bare": (real.latency.p99 / Math.max(baseline.latency.p99, 1)).toFixed(2),
    }));
    console.table(rows);
    const lookup = rows[0]["api p99 ms"];
    console.log(
      `Goal: p99 under 20 ms for the code lookup -> ${lookup} ms: ${lookup < 20 ? "met" : "NOT met"}`,
    );
    console.log(
      `BENCH_JSON ${JSON.stringify({
        bench: "api-read",
        scale,
        completedSales: summary.sales.count,
        durationSeconds: duration,
        connections,
        rows: runs.map(([name, real, baseline, size]) => ({
          endpoint: name,
          bodyBytes: size,
          api: { rps: real.requests.average, p50: real.latency.p50, p99: real.latency.p99 },
          bare: { rps: baseline.requests.average, p50: baseline.latency.p50, p99: baseline.latency.p99 },
        })),
      })}`,
    );
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await api.stop();
  }
}

if (!existsSync("package.json")) throw new Error("run from the repository root");
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
