/** What every benchmark of `npm run bench` declares: how to run it, and how its figures become rows. */

export type Status = "PASS" | "FAIL" | "info" | "not run";

export interface Row {
  bench: string;
  metric: string;
  value: string;
  goal: string;
  status: Status;
}

export interface BenchDef {
  id: string;
  /** Letter of the benchmark in the results table. */
  section: string;
  title: string;
  script: string;
  /** Runs with `--conditions=react-server` (it imports the dashboard's server code). */
  reactServer: boolean;
  /** Needs the dashboard's build (`next build`). */
  needsBuild?: boolean;
  /** Rows of the table from the `BENCH_JSON {...}` line the script printed. */
  rows(json: Record<string, unknown>, bench: string): Row[];
  /** The method note of results.md. */
  method(json: Record<string, unknown> | undefined): string;
}

export const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
export const check = (ok: boolean): Status => (ok ? "PASS" : "FAIL");
export const int = (n: number) => Math.round(n).toLocaleString("en");
export const env = (name: string, fallback: string) => process.env[name] ?? fallback;
