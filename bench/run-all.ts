/**
 * bench/run-all (`npm run bench`): every benchmark in sequence (the list is bench/report/index.ts),
 * one table, and bench/results.md with the machine's details.
 *
 * Each runs as its own process (as its npm script does), its output passed through; its figures
 * come from the `BENCH_JSON {...}` line it prints, and bench/report/<id>.ts turns them into rows.
 * The dashboard is built first when a selected benchmark needs it and there is no build or a
 * source file is newer than it (the rule of `npm start`). BENCH_ONLY=api-read,sync… runs a subset;
 * the other BENCH_* variables reach the benchmarks unchanged and are listed in the results. Exits
 * non-zero when a benchmark failed to run or a goal was missed.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { buildDashboardIfNeeded } from "../scripts/dashboard-build";
import { benches } from "./report";
import { loadAverage, machine } from "./report/machine";
import type { BenchDef, Row } from "./report/types";

const RESULTS = "bench/results.md";

interface StepRun {
  step: BenchDef;
  code: number | null;
  seconds: number;
  json: Record<string, unknown> | null;
}

function runStep(step: BenchDef): Promise<StepRun> {
  console.log(`\n== (${step.section}) ${step.id}: ${step.script} ==`);
  const started = performance.now();
  const args = ["--import", "tsx", ...(step.reactServer ? ["--conditions=react-server"] : []), step.script];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let buffer = "";
  let json: Record<string, unknown> | null = null;
  child.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    buffer += chunk.toString();
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith("BENCH_JSON ")) json = JSON.parse(line.slice("BENCH_JSON ".length));
      nl = buffer.indexOf("\n");
    }
  });
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ step, code, seconds: (performance.now() - started) / 1000, json })),
  );
}

function rowsFor(run: StepRun): Row[] {
  const bench = `(${run.step.section}) ${run.step.id}`;
  if (!run.json)
    return [{ bench, metric: "run", value: `failed (exit ${run.code})`, goal: "runs", status: "FAIL" }];
  const rows = run.step.rows(run.json, bench);
  if (run.code !== 0 && !rows.some((r) => r.status === "FAIL"))
    rows.push({ bench, metric: "exit code", value: String(run.code), goal: "0", status: "FAIL" });
  return rows;
}

const cellsOf = (r: Row) => [r.bench, r.metric, r.value, r.goal, r.status];

function textTable(rows: Row[]): string {
  const cols = ["benchmark", "metric", "value", "target/goal", "status"];
  const cells = rows.map(cellsOf);
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
  return [line(cols), widths.map((w) => "-".repeat(w)).join("-|-"), ...cells.map(line)].join("\n");
}

function markdownTable(rows: Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return [
    "| benchmark | metric | value | target/goal | status |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${cellsOf(r).map(esc).join(" | ")} |`),
  ].join("\n");
}

function resultsMarkdown(
  runs: StepRun[],
  rows: Row[],
  context: {
    startedAt: Date;
    minutes: number;
    buildSeconds: number | null;
    host: Awaited<ReturnType<typeof machine>>;
  },
): string {
  const { host } = context;
  const params = Object.entries(process.env)
    .filter(([k]) => k.startsWith("BENCH_"))
    .map(([k, v]) => `${k}=${v}`);
  const build =
    context.buildSeconds === null
      ? ""
      : `, of which ${(context.buildSeconds / 60).toFixed(1)} min of \`next build\``;
  const method = runs
    .map(
      (r) =>
        `### (${r.step.section}) ${r.step.title} — \`${r.step.script}\`, ${(r.seconds / 60).toFixed(1)} min\n\n${r.step.method(r.json ?? undefined)}`,
    )
    .join("\n\n");
  return `# Benchmark results

Written by \`npm run bench\` (bench/run-all.ts) from the run of ${context.startedAt.toISOString()} (UTC); the
whole run took ${context.minutes.toFixed(1)} min${build}. Every figure below is as measured in that run.

## Machine

- CPU: ${host.cpu}
- RAM: ${host.ram}
- OS: ${host.os}
- Node.js ${host.node}; Next.js ${host.next}
- Stores: ${host.stores}
- Load average (1, 5, 15 min) at start: ${host.load}; at the end: ${loadAverage()} — the machine is shared with other jobs
- Code: commit ${host.commit}
- Parameters: ${params.length ? params.join(", ") : "the defaults (no BENCH_* variable set)"}

## Results

${markdownTable(rows)}

Steps: ${runs.map((r) => `${r.step.id} ${(r.seconds / 60).toFixed(1)} min (exit ${r.code})`).join(", ")}.

## Method

${method}
`;
}

async function main() {
  const started = performance.now();
  const startedAt = new Date();
  const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
  const selected = only ? benches.filter((s) => only.includes(s.id)) : benches;
  if (only && selected.length !== only.length)
    throw new Error(`BENCH_ONLY: known benchmarks are ${benches.map((s) => s.id).join(", ")}`);
  const host = await machine();
  console.log(`npm run bench — ${startedAt.toISOString()}; load average at start ${host.load}`);
  const buildSeconds = selected.some((s) => s.needsBuild)
    ? buildDashboardIfNeeded(() => console.log("\n== building the dashboard (next build) =="))
    : null;

  const runs: StepRun[] = [];
  for (const step of selected) runs.push(await runStep(step));
  const rows = runs.flatMap(rowsFor);
  const minutes = (performance.now() - started) / 60_000;

  console.log(`\n== results (${minutes.toFixed(1)} min) ==\n`);
  console.log(textTable(rows));
  writeFileSync(RESULTS, resultsMarkdown(runs, rows, { startedAt, minutes, buildSeconds, host }));
  console.log(`\nWritten to ${RESULTS}. Total ${minutes.toFixed(1)} min.`);
  process.exit(rows.some((r) => r.status === "FAIL") ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
