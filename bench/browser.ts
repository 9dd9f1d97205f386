/**
 * bench/browser (`npm run bench:browser`, section (h) of `npm run bench`): what users feel in a
 * browser, measured by the browser tests themselves (e2e/measures.ts) and held to its goals here:
 *
 * - Lighthouse's performance score of each page of e2e/lighthouse.spec.ts, BENCH_LIGHTHOUSE_RUNS
 *   (5) runs per page, the median against 90 (npm test asserts accessibility 100 only);
 * - how long a second dashboard instance takes to take over the sync from a killed leader
 *   (e2e/instances.spec.ts; it needs PostgreSQL), against 60 s;
 * - how long a console connected for the first time takes to show today's figures after sign-in
 *   (e2e/live-first.spec.ts), against 15 s.
 *
 * Playwright starts the sandbox as `npm test` does (E2E_PORT, E2E_API_PORT and E2E_DATA_DIR apply).
 * Prints a table and a BENCH_JSON line; exits non-zero when a spec failed or a goal was missed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { type BrowserBench, browserRows } from "./report/browser";

const MEASURES = ".data/bench-browser/measures.jsonl";
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const SPECS = ["e2e/lighthouse.spec.ts", "e2e/instances.spec.ts", "e2e/live-first.spec.ts"];

interface Measure {
  name: string;
  value: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

rmSync(MEASURES, { force: true });
mkdirSync(dirname(MEASURES), { recursive: true });
console.log(`Playwright: ${SPECS.join(", ")} (Lighthouse ${RUNS} runs per page)`);
const run = spawnSync("npx", ["playwright", "test", ...SPECS, "--reporter=list"], {
  stdio: "inherit",
  env: { ...process.env, E2E_BENCH: "1", E2E_MEASURES: MEASURES, LIGHTHOUSE_RUNS: String(RUNS) },
});

const measures: Measure[] = existsSync(MEASURES)
  ? readFileSync(MEASURES, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Measure)
  : [];
const valuesOf = (name: string) => measures.filter((m) => m.name === name).map((m) => m.value);
const pages = [
  ...new Set(measures.map((m) => m.name).filter((n) => n.startsWith("lighthouse-performance "))),
];
const single = (name: string) => valuesOf(name).at(-1) ?? null;

const result: BrowserBench = {
  specsPassed: run.status === 0,
  runs: RUNS,
  lighthouse: pages.map((name) => {
    const scores = valuesOf(name);
    return { page: name.slice("lighthouse-performance ".length), scores, median: median(scores) };
  }),
  takeoverSeconds: single("takeover"),
  firstFiguresSeconds: single("first-figures"),
};

const rows = browserRows(result, "(h) browser");
console.log(
  `\n${rows.map((r) => `${r.status.padEnd(4)} ${r.metric}: ${r.value} (goal ${r.goal})`).join("\n")}`,
);
console.log(`BENCH_JSON ${JSON.stringify(result)}`);
process.exit(rows.some((r) => r.status === "FAIL") ? 1 : 0);
