/**
 * bench/push (`npm run bench:push`, issue 27): how soon a sale reaches a manager's overview in
 * Chromium, pushed, while the mirror is young and after.
 *
 *   npm run bench:push   (BENCH_PUSH_S=300  BENCH_PUSH_RATE=20  BENCH_PUSH_SCALE=0.2  BENCH_PUSH_STREAMS=50)
 *
 * The sandbox's Integration API as its own process (demo seed at BENCH_PUSH_SCALE, its terminal
 * simulator at BENCH_PUSH_RATE events/s) behind a counting proxy; the dashboard as `next start` of
 * the current build with the sync worker (default quota 120 reads/min, cycle 30 s, tail 2.5 s), its
 * store a fresh PostgreSQL schema the bench reads too. Measuring starts when the first mirror is
 * done (today walked) and lasts BENCH_PUSH_S seconds and at least until the older days are walked,
 * so both phases are measured:
 *
 * - **overview**: a Chromium page on the overview; every overview answer it receives is noted with
 *   today's sales count. A sale is on the overview from the first answer whose count reaches its
 *   rank among today's completed sales by arrival (the tail mirrors in arrival order): that
 *   instant minus its `created_at`.
 * - **mirror lag**: the mirror is read every 100 ms; a sale's lag is when it was first seen minus
 *   its `created_at`.
 * - **streams**: for 60 s BENCH_PUSH_STREAMS streams (GET /api/stream with the session) are open and
 *   for 60 s none: the upstream reads the proxy saw that the sync worker did not make (its
 *   requests_used) in each window, and the dashboard's CPU time per second (all its processes) in
 *   each: the difference over the streams is the CPU of one stream.
 *
 * Prints the figures and a BENCH_JSON line (bench/report/push.ts makes the rows).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium } from "@playwright/test";
import { adminToken, createFullKey, freePort, spawnApi } from "@/integration-api/testing/api-process";
import { addUser } from "@/lib/server/auth/accounts";
import { openDashboardStore } from "@/lib/server/store";
import { createTestSchema } from "@/lib/testing/test-db";
import { buildDashboardIfNeeded } from "../scripts/dashboard-build";
import { nextEnv, nextStartArgs } from "../scripts/next-process";
import { type PushBench, pushRows } from "./report/push";

const SECONDS = Number(process.env.BENCH_PUSH_S ?? 300);
const RATE = Number(process.env.BENCH_PUSH_RATE ?? 20);
const SCALE = process.env.BENCH_PUSH_SCALE ?? "0.2";
const STREAMS = Number(process.env.BENCH_PUSH_STREAMS ?? 50);
const POSTGRES = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const USER = { username: "pushbench", password: "push-bench-password-long" };
const SECRET = "push-bench-session-secret-0123456789abcdef";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : Number.NaN;
};
const stats = (xs: number[]) => ({
  n: xs.length,
  p50: percentile(xs, 50),
  p95: percentile(xs, 95),
  max: percentile(xs, 100),
});

/** Forwards to the API and counts what passes; `quiet()` resolves once nothing is in flight for a while. */
function countingProxy(target: string) {
  const upstream = new URL(target);
  const state = { requests: 0, inFlight: 0, lastDone: 0 };
  const server = createServer((req, res) => {
    state.requests++;
    state.inFlight++;
    const out = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("end", () => {
          state.inFlight--;
          state.lastDone = Date.now();
        });
      },
    );
    out.on("error", () => {
      state.inFlight--;
      res.destroy();
    });
    req.pipe(out);
  });
  return {
    state,
    listen: () =>
      new Promise<number>((r) =>
        server.listen(0, "127.0.0.1", () => r((server.address() as AddressInfo).port)),
      ),
    close: () => server.close(),
    async quiet() {
      while (state.inFlight > 0 || Date.now() - state.lastDone < 400) await sleep(50);
    },
  };
}

/** CPU seconds (user + system) of every process of a process group (the dashboard and its children). */
function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / 100;
}

async function main(): Promise<PushBench> {
  const built = buildDashboardIfNeeded((first) =>
    console.log(first ? "Building the dashboard…" : "Rebuilding the dashboard…"),
  );
  if (built !== null) console.log(`  built in ${built.toFixed(0)} s`);
  const apiDir = ".data/bench-push-api";
  rmSync(apiDir, { recursive: true, force: true });
  console.log(`The sandbox API: demo seed at scale ${SCALE}, simulator at ${RATE} events/s…`);
  const api = await spawnApi(
    {
      API_PORT: String(await freePort(4500, 4599)),
      API_DATA_DIR: apiDir,
      API_SEED: "demo",
      API_SEED_SCALE: SCALE,
      API_SIMULATOR: "on",
      API_SIMULATOR_RATE: String(RATE),
      API_ENVIRONMENT: "test",
    },
    { startTimeoutMs: 600_000 },
  );
  const proxy = countingProxy(api.url);
  const proxyPort = await proxy.listen();
  const schema = await createTestSchema(POSTGRES);
  const db = await openDashboardStore({ databaseUrl: schema.url });
  await addUser(db, USER.username, USER.password, "manager");
  const key = await createFullKey(api.url, adminToken(apiDir), 120, "bench push");
  // The key's write and check-in limits are the API's defaults too: only reads matter here.
  const port = await freePort(3900, 3999);
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, nextStartArgs(port, "127.0.0.1"), {
    env: nextEnv({
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: schema.url,
      SESSION_SECRET: SECRET,
      CASHLESS_API_KEY: key,
      CASHLESS_API_URL: `http://127.0.0.1:${proxyPort}/v1`,
      SYNC_INTERVAL_S: "30",
    }),
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    for (
      let i = 0;
      !(await fetch(`${base}/login`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 240) throw new Error("next start did not answer");
      await sleep(500);
    }
    const started = Date.now();
    const login = await fetch(`${base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify(USER),
    });
    if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
    const cookies = login.headers.getSetCookie().map((c) => {
      const [name = "", ...value] = (c.split(";")[0] ?? "").split("=");
      return { name, value: value.join("=") };
    });
    const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join("; ");

    // The first mirror: today walked (the overview's day is the current event day).
    const plan = () => db.query<{ day_id: string; done: boolean }>("select day_id, done from sync_backfill");
    let today: string | null = null;
    for (;;) {
      const overview = await (
        await fetch(`${base}/api/live/overview`, { headers: { cookie: cookieHeader } })
      ).json();
      today = overview?.day?.id ?? null;
      const rows = await plan();
      if (
        today &&
        rows.some((r) => r.day_id === today) &&
        rows.filter((r) => r.day_id === today).every((r) => r.done)
      )
        break;
      if (Date.now() - started > 20 * 60_000) throw new Error("the first mirror took over 20 min");
      await sleep(500);
    }
    const firstMirrorAt = Date.now();
    console.log(
      `First mirror (today ${today}) done in ${((firstMirrorAt - started) / 1000).toFixed(0)} s; measuring…`,
    );

    const context = await browser.newContext();
    await context.addCookies(cookies.map((c) => ({ ...c, domain: "127.0.0.1", path: "/" })));
    const page = await context.newPage();
    const seen: { at: number; count: number }[] = [];
    page.on("response", async (response) => {
      if (!response.url().includes("/api/live/overview") || !response.ok()) return;
      const at = Date.now();
      const body = await response.json().catch(() => null);
      if (body?.day?.id === today) seen.push({ at, count: body.totals.count });
    });
    await page.goto(`${base}/`);

    // The mirror, read every 100 ms: when each sale was first seen.
    const mirrored = new Map<string, { seenAt: number; createdAt: number }>();
    const [{ last }] = (await db.query<{ last: string | null }>("select max(id) as last from m_sales")) as [
      { last: string | null },
    ];
    let cursor = last ?? "";
    let walkDoneAt: number | null = null;
    const streamWindows: PushBench["streams"] = [];
    let stopReading = false;
    const reader = (async () => {
      while (!stopReading) {
        const now = Date.now();
        const rows = await db.query<{ id: string; created_at: string }>(
          "select id, created_at from m_sales where id > $1 order by id",
          [cursor],
        );
        for (const r of rows) mirrored.set(r.id, { seenAt: now, createdAt: Date.parse(r.created_at) });
        if (rows.length) cursor = rows.at(-1)!.id;
        if (walkDoneAt === null && (await plan()).every((r) => r.done)) walkDoneAt = now;
        await sleep(100);
      }
    })();

    const window = async (streams: number, seconds: number) => {
      const opened = Array.from({ length: streams }, () => new AbortController());
      const bodies = await Promise.all(
        opened.map((c) =>
          fetch(`${base}/api/stream`, { headers: { cookie: cookieHeader }, signal: c.signal }),
        ),
      );
      const draining = bodies.map(async (r) => {
        const read = r.body!.getReader();
        try {
          for (;;) if ((await read.read()).done) break;
        } catch {
          // aborted
        }
      });
      await proxy.quiet();
      const workerRequests = async () =>
        Number(
          (
            await db.query<{ n: number }>("select coalesce(sum(requests_used), 0)::int as n from sync_state")
          )[0]!.n,
        );
      const w0 = await workerRequests();
      const p0 = proxy.state.requests;
      const c0 = groupCpuSeconds(server.pid!);
      const t0 = Date.now();
      await sleep(seconds * 1000);
      await proxy.quiet();
      const cpu = groupCpuSeconds(server.pid!) - c0;
      const elapsed = (Date.now() - t0) / 1000;
      const upstream = proxy.state.requests - p0;
      const worker = (await workerRequests()) - w0;
      for (const c of opened) c.abort();
      await Promise.all(draining);
      streamWindows.push({ streams, seconds: elapsed, upstream, worker, cpuPerSecond: cpu / elapsed });
      console.log(
        `  ${streams} streams, ${elapsed.toFixed(0)} s: ${upstream} upstream reads (${worker} by the sync worker), CPU ${(cpu / elapsed).toFixed(3)} s/s`,
      );
    };
    const measureUntil = firstMirrorAt + SECONDS * 1000;
    await window(STREAMS, 60);
    await window(0, 60);
    while (Date.now() < measureUntil || walkDoneAt === null) {
      if (Date.now() - firstMirrorAt > 60 * 60_000) break;
      await sleep(1000);
    }
    const endedAt = Date.now();
    await sleep(15_000); // the last sales reach the overview
    stopReading = true;
    await reader;

    // Today's completed sales in arrival order: the k-th is on the overview once its count reaches k.
    const todays = await db.query<{ id: string; created_at: string }>(
      "select id, created_at from m_sales where day_id = $1 and status = 'completed' order by created_at, id",
      [today],
    );
    const phaseOf = (createdAt: number) =>
      walkDoneAt !== null && createdAt >= walkDoneAt ? "after" : "walking";
    const overview = { walking: [] as number[], after: [] as number[] };
    const lag = { walking: [] as number[], after: [] as number[] };
    let j = 0;
    todays.forEach((sale, i) => {
      const createdAt = Date.parse(sale.created_at);
      if (createdAt < firstMirrorAt || createdAt > endedAt) return;
      while (j < seen.length && seen[j]!.count < i + 1) j++;
      const shownAt = j < seen.length ? seen[j]!.at : Date.now();
      overview[phaseOf(createdAt)].push((shownAt - createdAt) / 1000);
    });
    for (const { seenAt, createdAt } of mirrored.values()) {
      if (createdAt < firstMirrorAt || createdAt > endedAt) continue;
      lag[phaseOf(createdAt)].push((seenAt - createdAt) / 1000);
    }
    const result: PushBench = {
      rate: RATE,
      scale: Number(SCALE),
      seconds: (endedAt - firstMirrorAt) / 1000,
      firstMirrorSeconds: (firstMirrorAt - started) / 1000,
      walkingSeconds: walkDoneAt === null ? null : (walkDoneAt - firstMirrorAt) / 1000,
      overviewAnswers: seen.length,
      overview: { walking: stats(overview.walking), after: stats(overview.after) },
      lag: { walking: stats(lag.walking), after: stats(lag.after) },
      streams: streamWindows,
    };
    await context.close();
    return result;
  } finally {
    await browser.close().catch(() => undefined);
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await sleep(1000);
    await db.close();
    await schema.drop();
    proxy.close();
    await api.stop();
    rmSync(apiDir, { recursive: true, force: true });
  }
}

main().then(
  (result) => {
    const rows = pushRows(result, "(i) push");
    console.log(
      `\n${rows.map((r) => `${r.status.padEnd(4)} ${r.metric}: ${r.value} (goal ${r.goal})`).join("\n")}`,
    );
    console.log(`BENCH_JSON ${JSON.stringify(result)}`);
    process.exit(rows.some((r) => r.status === "FAIL") ? 1 : 0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
