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
const timed = (label, fn) => {
  const from = Date.now();
  const result = fn();
  const ms = Date.now() - from;
  durations.push([label, ms]);
  console.log(`=== ${label}: ${minutes(ms)}`);
  return result;
};
const run = (label, command, args, env = embeddedEnv) =>
  timed(label, () => {
    console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
    const { status } = spawnSync(command, args, { stdio: "inherit", env });
    return status === 0;
  });
const count = (ok) => (ok ? passed++ : failed++);

count(run("lint and format", "npx", ["biome", "check", "."]));

// The browser tests' build (`next build`, mostly one core) runs beside the typecheck and the vitest
// suites, so that the browser tests' sandbox finds it up to date (scripts/dashboard-build.ts) and
// starts at once. Its typecheck is the one below (BUILD_TYPECHECK=off: next.config.ts).
const buildStarted = Date.now();
const buildLog = `${results}/next-build.log`;
const build = new Promise((resolve) => {
  // Its output straight to a file: the suites below block this process's event loop.
  const log = openSync(buildLog, "w");
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: ["ignore", log, log],
    env: { ...embeddedEnv, BUILD_TYPECHECK: "off", NEXT_TELEMETRY_DISABLED: "1" },
  });
  closeSync(log);
  // The build's own time, not how long the suites above made us wait for it.
  child.on("error", () => resolve({ ok: false, ms: Date.now() - buildStarted }));
  child.on("close", (status) => resolve({ ok: status === 0, ms: Date.now() - buildStarted }));
});

count(run("typecheck", "npx", ["tsc", "--noEmit", "-p", "."]));

/** Runs vitest and adds its counts; a suite that failed to load (no tests of its own) counts once. */
function vitest(label, report, filters, env) {
  const ok = run(
    label,
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...filters],
    env,
  );
  if (!existsSync(report)) {
    failed += 1;
    return;
  }
  const json = JSON.parse(readFileSync(report, "utf8"));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  failed += json.testResults.filter((s) => s.status === "failed" && s.assertionResults.length === 0).length;
  if (!ok && json.numFailedTests === 0) failed += 1;
}

vitest("unit and integration tests", `${results}/vitest.json`, [], embeddedEnv);

if (postgresUp) {
  // Schemas of an earlier, killed run would otherwise stay behind.
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  const { rows } = await client.query("select nspname from pg_namespace where nspname like 'vt\\_%'");
  for (const { nspname } of rows) await client.query(`drop schema if exists ${nspname} cascade`);
  await client.end();
  vitest("store and sync suites on PostgreSQL", `${results}/vitest-postgres.json`, POSTGRES_SUITES, {
    ...process.env,
    DATABASE_URL: POSTGRES_URL,
    API_DATABASE_URL: POSTGRES_URL,
  });
} else if (process.env.CI) {
  console.log(`\n=== store and sync suites on PostgreSQL: no server answers at ${POSTGRES_URL}`);
  failed += 1;
} else {
  console.log(`\n=== store and sync suites on PostgreSQL: skipped (no server at ${POSTGRES_URL})`);
}

const built = await build;
durations.push(["build (beside the suites above)", built.ms]);
if (!built.ok) {
  console.log(`\n=== next build failed; its output:\n${readFileSync(buildLog, "utf8")}`);
  failed += 1;
}

// Browser tests against the whole sandbox (the real Integration API and the dashboard).
// The spec files in a seeded shuffle (E2E_ORDER overrides): each spec owns its state, so no order
// may change the answer, and the same seed gives the same order on every run.
const e2eOrder = process.env.E2E_ORDER || "shuffle:34";
const e2eOk = run(`end-to-end tests (Chromium, ${e2eOrder})`, "npx", ["playwright", "test"], {
  ...embeddedEnv,
  E2E_ORDER: e2eOrder,
});
if (existsSync(`${results}/playwright.json`)) {
  const { stats } = JSON.parse(readFileSync(`${results}/playwright.json`, "utf8"));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  if (!e2eOk && stats.unexpected === 0) failed += 1;
} else {
  failed += 1;
}

console.log("\n=== durations");
for (const [label, ms] of durations) console.log(`${label.padEnd(40)} ${minutes(ms)}`);
console.log(`${"total".padEnd(40)} ${minutes(Date.now() - started)}`);

const line = `${passed} passed, ${failed} failed`;
writeFileSync(`${results}/summary.txt`, `${line}\n`);
console.log(`\n${line}`);
process.exit(failed === 0 ? 0 : 1);
