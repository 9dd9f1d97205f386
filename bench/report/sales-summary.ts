import { type BenchDef, check, env, int, ms, type Row } from "./types";

export interface SalesSummaryBench {
  goalP99Ms: number;
  results: {
    store: string;
    completedSales: number;
    scanMatches: boolean;
    rows: { key: string; path: string; p50: number; p99: number; scan: number | null }[];
  }[];
}

export const salesSummary: BenchDef = {
  id: "sales-summary",
  section: "a",
  title: "Sales summary (kept)",
  script: "bench/sales-summary.ts",
  reactServer: false,
  rows(json, bench) {
    const rows: Row[] = [];
    const r = json as unknown as SalesSummaryBench;
    for (const s of r.results) {
      const worst = Math.max(...s.rows.map((x) => x.p99));
      rows.push({
        bench,
        metric: `${s.store}: GET /reports/sales-summary worst p99 of ${s.rows.length} paths (${int(s.completedSales)} sales)`,
        value: ms(worst),
        goal: `< ${r.goalP99Ms} ms, equal to a full scan`,
        status: check(worst < r.goalP99Ms && s.scanMatches),
      });
      const whole = s.rows.find((x) => x.key === "full" && !x.path.includes("day_id"));
      if (whole)
        rows.push({
          bench,
          metric: `${s.store}: whole event p50 / the old full scan`,
          value: `${ms(whole.p50)} / ${ms(whole.scan ?? Number.NaN)}`,
          goal: "—",
          status: "info",
        });
    }
    return rows;
  },
  method() {
    return `The Integration API keeps the summary in tables its writes update in the same transaction (migration 002_summary). Against the scale-${env("BENCH_SCALE", "20")} store (~1,000,000 sales) on ${env("BENCH_STORES", "pglite,postgres")}, 200 sequential \`GET /v1/reports/sales-summary\` per path (every day and the whole event, for a full key and a key restricted by ticket type and day), over HTTP; the old full scan (the recompute the summary replaced) is timed beside it and must give the same answer.`;
  },
};
