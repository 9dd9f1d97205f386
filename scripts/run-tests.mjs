#!/usr/bin/env node
// `npm test`: every suite in order, then one line "N passed, M failed" for all of them together.
// Lint and typecheck count as one test each; vitest (and later Playwright) report their own counts.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";

const results = ".test-results";
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

// The store and sync suites run a second time on PostgreSQL (each test store in a throwaway schema
// of this database). CI must have it; elsewhere the pass is skipped, with a warning, when it is down.
const POSTGRES_URL = process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/test";
const POSTGRES_SUITES = [
  "integration-api/routes",
  "integration-api/services",
  "integration-api/http/auth",
  "integration-api/http/idempotency",
  "integration-api/seed",
  "integration-api/simulator",
  "integration-api/crash-safety",
  "integration-api/store",
  "lib/db",
  "lib/server/sync",
  "lib/server/sales",
  "lib/server/night",
  "lib/server/gate",
  "lib/server/desk",
  "lib/server/review",
  "lib/server/imports",
  "lib/server/terminals",
  "lib/server/gates",
  "lib/server/store",
  "lib/server/auth",
  "lib/server/http",
  "lib/server/users",
  "lib/server/alerts",
  "lib/server/notify",
  "lib/testing/test-db",
];
const postgresUp = await new Promise((resolve) => {
  const { hostname, port } = new URL(POSTGRES_URL);
  const socket = createConnection({ host: hostname, port: Number(port || 5432), timeout: 1000 });
  socket.on("connect", () => resolve(socket.end() && true));
  socket.on("error", () => resolve(false));
  socket.on("timeout", () => resolve(socket.destroy() && false));
});

// The first pass runs on the embedded store whatever the shell has set.
const embeddedEnv = { ...process.env };
delete embeddedEnv.DATABASE_URL;
delete embeddedEnv.API_DATABASE_URL;

let passed = 0;
let failed = 0;
/** Each part's wall-clock time, printed after it and again at the end. */
const durations = [];
const started = Date.now();
const minutes = (ms) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
};
const done = (label, from) => {
  const ms = Date.now() - from;
  durations.push([label, ms]);
  console.log(`=== ${label}: ${minutes(ms)}`);
};
const run = (label, command, args, env = embeddedEnv) => {
  const from = Date.now();
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const { status } = spawnSync(command, args, { stdio: "inherit", env });
  done(label, from);
  return status === 0;
};
/** Parts started in a session of their own, stopped with this process however it ends. */
const sessions = new Set();
process.on("exit", () => {
  for (const pid of sessions) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

/**
 * The lowest CPU priority Linux gives a group of processes: a cpu cgroup with `cpu.idle` set
 * (Linux 5.15 and later, cgroup v1 or v2), whose processes yield the CPU at once to any other that
 * wakes up. The browser tests are a chain of short steps (Chromium, the console, the Integration
 * API) that each wake up and wait: beside vitest at nice 19, each step waited for vitest's turn to
 * end and the browser tests took twice as long (docs/testing.md). Null where no such group can be
 * made (not root, no cpu controller): then nice and the autogroup below.
 */
function idleCpuGroup() {
  for (const root of ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup"]) {
    const dir = `${root}/npm-test-background`;
    // A cgroup file system has cgroup.procs at its root; /sys/fs/cgroup may be a plain tmpfs.
    if (!existsSync(`${root}/cgroup.procs`)) continue;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/cpu.idle`, "1");
      return dir;
    } catch {
      // not this hierarchy
    }
  }
  return null;
}
const idleGroup = idleCpuGroup();

/**
 * A part that runs while others do: its output to the terminal, or to `log` when another part's
 * output is the one shown live. With `background`, at the lowest priority: in the idle cpu group
 * (idleCpuGroup), at `nice -n 19`, in a session of its own whose scheduling group (Linux's
 * autogroup, where there is no idle group) gets nice 19 too. Resolves with its success.
 */
const runBeside = (label, command, args, { env = embeddedEnv, log, background = false } = {}) =>
  new Promise((resolve) => {
    const from = Date.now();
    console.log(`\n=== ${label}: ${command} ${args.join(" ")}${log ? ` (output in ${log})` : ""}`);
    const out = log ? openSync(log, "w") : "inherit";
    const niced = ["nice", "-n", "19", command, ...args];
    // The shell joins the group before it becomes the command, so every process it starts is in it.
    const [file, ...argv] = !background
      ? [command, ...args]
      : idleGroup
        ? ["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', idleGroup, ...niced]
        : niced;
    const child = spawn(file, argv, { stdio: ["ignore", out, out], env, detached: background });
    if (log) closeSync(out);
    if (background && child.pid) {
      sessions.add(child.pid);
      try {
        if (!idleGroup) writeFileSync(`/proc/${child.pid}/autogroup`, "19");
      } catch {
        // no autogroup here: nice alone
      }
    }
    const end = (ok) => {
      sessions.delete(child.pid);
      done(label, from);
      resolve(ok);
    };
    child.on("error", () => end(false));
    child.on("close", (status) => end(status === 0));
  });
const count = (ok) => (ok ? passed++ : failed++);
/** The logs of the parts that failed, printed at the end. */
const failedLogs = [];

count(run("lint and format", "npx", ["biome", "check", "."]));

// The browser tests' build (`next build`) runs beside the typecheck, so that the browser tests'
// sandbox finds it up to date (scripts/dashboard-build.ts) and starts at once. Its typecheck is the
// one below (BUILD_TYPECHECK=off: next.config.ts).
const build = runBeside("build", process.execPath, ["node_modules/next/dist/bin/next", "build"], {
  env: { ...embeddedEnv, BUILD_TYPECHECK: "off", NEXT_TELEMETRY_DISABLED: "1" },
  log: `${results}/next-build.log`,
});

count(run("typecheck", "npx", ["tsc", "--noEmit", "-p", "."]));

/**
 * Runs vitest beside the build and then the browser tests, at the lowest priority: the browser
 * suite, the longest part, waits on Chromium and the sandbox more than it computes (about 1.5 of
 * the two cores), and vitest takes what it leaves (docs/testing.md). Adds vitest's counts; a suite
 * that failed to load (no tests of its own) counts once. Its output goes to a log, shown at the end
 * when it failed.
 */
async function vitest(label, name, filters, env) {
  const report = `${results}/${name}.json`;
  const log = `${results}/${name}.log`;
  const ok = await runBeside(
    label,
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...filters],
    { env, log, background: true },
  );
  if (!existsSync(report)) {
    failed += 1;
    console.log(`\n=== ${label} wrote no report; its output:\n${readFileSync(log, "utf8")}`);
    return;
  }
  const json = JSON.parse(readFileSync(report, "utf8"));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  failed += json.testResults.filter((s) => s.status === "failed" && s.assertionResults.length === 0).length;
  if (!ok && json.numFailedTests === 0) failed += 1;
  console.log(`=== ${label}: ${json.numPassedTests} passed, ${json.numFailedTests} failed (${log})`);
  if (!ok) failedLogs.push([label, log]);
}
/**
 * Both vitest passes side by side, in the idle cpu group: the one on PostgreSQL waits on the
 * server much of its time, which the first pass fills.
 */
async function vitestSuites() {
  const passes = [vitest("unit and integration tests", "vitest", [], embeddedEnv)];
  if (postgresUp) {
    // Schemas and databases of an earlier, killed run would otherwise stay behind.
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    const { rows } = await client.query("select nspname from pg_namespace where nspname like 'vt\\_%'");
    for (const { nspname } of rows) await client.query(`drop schema if exists ${nspname} cascade`);
    // And their databases: stores (vt_) and built templates (vtt_), lib/testing/test-db.ts.
    const leftovers = await client.query(
      "select datname from pg_database where datname like 'vt\\_%' or datname like 'vtt\\_%'",
    );
    for (const { datname } of leftovers.rows)
      await client.query(`drop database if exists ${datname} with (force)`);
    await client.end();
    passes.push(
      vitest("store and sync suites on PostgreSQL", "vitest-postgres", POSTGRES_SUITES, {
        ...process.env,
        DATABASE_URL: POSTGRES_URL,
        API_DATABASE_URL: POSTGRES_URL,
      }),
    );
  } else if (process.env.CI) {
    console.log(`\n=== store and sync suites on PostgreSQL: no server answers at ${POSTGRES_URL}`);
    failed += 1;
  } else {
    console.log(`\n=== store and sync suites on PostgreSQL: skipped (no server at ${POSTGRES_URL})`);
  }
  await Promise.all(passes);
}
const suites = vitestSuites();

/**
 * Browser tests against the whole sandbox (the real Integration API and the dashboard), once the
 * build is done. The spec files in a seeded shuffle (E2E_ORDER overrides): each spec owns its state,
 * so no order may change the answer, and the same seed gives the same order on every run.
 */
async function browserTests() {
  if (!(await build)) {
    console.log(`\n=== next build failed; its output:\n${readFileSync(`${results}/next-build.log`, "utf8")}`);
    failed += 1;
  }
  const e2eOrder = process.env.E2E_ORDER || "shuffle:34";
  const e2eOk = await runBeside(`end-to-end tests (Chromium, ${e2eOrder})`, "npx", ["playwright", "test"], {
    env: { ...embeddedEnv, E2E_ORDER: e2eOrder },
  });
  if (existsSync(`${results}/playwright.json`)) {
    const { stats } = JSON.parse(readFileSync(`${results}/playwright.json`, "utf8"));
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    if (!e2eOk && stats.unexpected === 0) failed += 1;
  } else {
    failed += 1;
  }
}

await Promise.all([suites, browserTests()]);

for (const [label, log] of failedLogs)
  console.log(`\n=== ${label} failed; its output:\n${readFileSync(log, "utf8")}`);

console.log("\n=== durations");
for (const [label, ms] of durations) console.log(`${label.padEnd(40)} ${minutes(ms)}`);
console.log(`${"total".padEnd(40)} ${minutes(Date.now() - started)}`);

const line = `${passed} passed, ${failed} failed`;
writeFileSync(`${results}/summary.txt`, `${line}\n`);
console.log(`\n${line}`);
process.exit(failed === 0 ? 0 : 1);
