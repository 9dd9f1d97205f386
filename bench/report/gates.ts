import { type BenchDef, check, int, ms } from "./types";

interface GatesBench {
  scans: number;
  sales: number;
  cycles: number;
  casesFound: number;
  step: { p50: number; p95: number; max: number };
  read: { p50: number; p95: number };
  pageWith: { p50: number };
  pageWithout: { p50: number };
  rebuildMs: number;
  goalMs: number;
}

export const gates: BenchDef = {
  id: "gates",
  section: "j",
  title: "The gates: entries and misuse",
  script: "bench/gates.ts",
  reactServer: true,
  rows(json, bench) {
    const r = json as unknown as GatesBench;
    return [
      {
        bench,
        metric: `entry aggregates' and misuse rules' step per cycle at ${int(r.scans)} mirrored scans and ${int(r.sales)} sales (200 + 200 new records, ${r.cycles} cycles, ${r.casesFound} cases found): p50 / p95 / max`,
        value: `${ms(r.step.p50)} / ${ms(r.step.p95)} / ${ms(r.step.max)}`,
        goal: `p95 < ${r.goalMs} ms`,
        status: check(r.step.p95 < r.goalMs),
      },
      {
        bench,
        metric: "a tail page of 200 scans written: p50 with the gates' triggers / without",
        value: `${ms(r.pageWith.p50)} / ${ms(r.pageWithout.p50)}`,
        goal: "—",
        status: "info",
      },
      {
        bench,
        metric: "the Entries screen's read of a day: p50 / p95",
        value: `${ms(r.read.p50)} / ${ms(r.read.p95)}`,
        goal: "—",
        status: "info",
      },
      {
        bench,
        metric: `the full scan the triggers avoid: rebuilding the entry aggregates from ${int(r.scans)} scans`,
        value: `${(r.rebuildMs / 1000).toFixed(1)} s`,
        goal: "—",
        status: "info",
      },
    ];
  },
  method() {
    return "Its own dashboard store (.data/bench-gates): 1,000,000 mirrored door scans (100,000 wristbands at three zones over three nights, one in 20 denied) and 1,000,000 sales, built once with the mirror's triggers on. Each cycle writes a tail page of 200 scans (one impossible walk, and every fifth cycle a burst of 12 denials) and 200 sales (one double swipe) through the mirror's upsert, then runs `evaluateGates` (the misuse rules on the queue the triggers filled, and the capacity alerts: the worker's after-cycle step for the gates), then the Entries screen's read of the day; the clock moves 30 s per cycle; `BENCH_CYCLES` cycles after two warm-up cycles. Every other scan page is written with the gates' triggers disabled, to show their cost (its scans are queued for the rules all the same, so every cycle's step sees 200 + 200). The pages are deleted afterwards; last, `gates_recompute()` rebuilds the aggregates from the whole mirror.";
  },
};
