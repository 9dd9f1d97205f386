import { type BenchDef, check, env, int, type Row } from "./types";

export interface ApiRead {
  completedSales: number;
  rows: {
    endpoint: string;
    api: { rps: number; p50: number; p99: number };
    bare: { rps: number; p50: number; p99: number };
  }[];
}

export const apiRead: BenchDef = {
  id: "api-read",
  section: "a",
  title: "Integration API reads",
  script: "bench/api-read.ts",
  reactServer: false,
  rows(json, bench) {
    const rows: Row[] = [];
    const r = json as unknown as ApiRead;
    for (const e of r.rows) {
      rows.push({
        bench,
        metric: `${e.endpoint}: req/s api/bare`,
        value: `${(e.api.rps / e.bare.rps).toFixed(2)} (${int(e.api.rps)} / ${int(e.bare.rps)})`,
        goal: "—",
        status: "info",
      });
      rows.push({
        bench,
        metric: `${e.endpoint}: p99 api/bare`,
        value: `${(e.api.p99 / Math.max(e.bare.p99, 1)).toFixed(2)} (${e.api.p99} ms / ${e.bare.p99} ms)`,
        goal: "—",
        status: "info",
      });
    }
    const lookup = r.rows[0];
    if (lookup)
      rows.push({
        bench,
        metric: `${lookup.endpoint}: p99`,
        value: `${lookup.api.p99} ms`,
        goal: "< 20 ms",
        status: check(lookup.api.p99 < 20),
      });
    return rows;
  },
  method(json) {
    const api = json as unknown as ApiRead | undefined;
    return `autocannon, ${env("BENCH_CONNECTIONS", "10")} connections for ${env("BENCH_DURATION_S", "10")} s per run, against the real service (own process, PGlite store seeded at scale ${env("BENCH_SCALE", "20")}${api ? `: ${int(api.completedSales)} completed sales` : ""}) and against a bare Hono route on the same adapter answering fixed bodies of the same size. \`GET /tickets/{code}\` cycles through 200 real codes. Ratios are api/bare (req/s below 1 and p99 above 1 are the cost of auth, rate limiting, the store and serialisation).`;
  },
};
