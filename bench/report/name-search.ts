import { type BenchDef, check, int, ms } from "./types";

interface NameSearchBench {
  tickets: number;
  results: { phase: string; name: string; p50: number; p95: number }[];
}

export const nameSearch: BenchDef = {
  id: "name-search",
  section: "e",
  title: "Name search",
  script: "bench/name-search.ts",
  reactServer: true,
  needsBuild: true,
  rows(json, bench) {
    const r = json as unknown as NameSearchBench;
    return r.results
      .filter((x) => x.name === "all queries")
      .map((x) => ({
        bench,
        metric: `${x.phase}: p50 / p95 of 12 queries at ${int(r.tickets)} tickets`,
        value: `${ms(x.p50)} / ${ms(x.p95)}`,
        goal: "p95 < 100 ms",
        status: check(x.p95 < 100),
      }));
  },
  method() {
    return "100,000 mirrored tickets with accented names (built once in SQL, words indexed by migration 009's trigger). 12 queries typed as staff would, without accents, each called `BENCH_ITERATIONS` times after 10 warm-up calls: in-process through `search()` (what `GET /api/staff/search` calls, with its answer's schema) and over HTTP (`next start`, SYNC=off, a signed-in cookie).";
  },
};
