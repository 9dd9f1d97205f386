import { type BenchDef, check, env, ms, type Row } from "./types";

export interface DashboardRead {
  sales: number;
  worstP95: number;
  results: { phase: string; name: string; p50: number; p95: number; p99: number }[];
}

export const dashboardRead: BenchDef = {
  id: "dashboard-read",
  section: "c",
  title: "Dashboard route handlers",
  script: "bench/dashboard-read.ts",
  reactServer: true,
  needsBuild: true,
  rows(json, bench) {
    const rows: Row[] = [];
    const r = json as unknown as DashboardRead;
    const inProcess = r.results.filter((x) => x.phase === "in-process");
    const worstIn = Math.max(...inProcess.map((x) => x.p95));
    rows.push({
      bench,
      metric: `in-process, worst p95 of ${inProcess.length} handlers`,
      value: ms(worstIn),
      goal: "< 50 ms",
      status: check(worstIn < 50),
    });
    for (const x of r.results.filter((x) => x.phase === "http"))
      rows.push({
        bench,
        metric: `HTTP p95 ${x.name}`,
        value: ms(x.p95),
        goal: "< 50 ms",
        status: check(x.p95 < 50),
      });
    return rows;
  },
  method(_json) {
    return `The dashboard store of 1,000,000 mirrored sales, 200,000 top-ups and 200,000 scans (built once in SQL, aggregates kept by the same triggers as the sync worker's writes). ${env("BENCH_ITERATIONS", "200")} sequential calls per handler after 10 warm-up calls: in-process (the report functions) and over HTTP (\`next start\`, SYNC=off, a signed-in manager's cookie).`;
  },
};
