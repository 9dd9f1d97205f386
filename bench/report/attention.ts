import { type BenchDef, check, int, ms } from "./types";

interface AttentionBench {
  sales: number;
  records: number;
  cycles: number;
  terminals: number;
  evaluate: { p50: number; p95: number; max: number };
  pageWith: { p50: number };
  pageWithout: { p50: number };
  ticketsWith: { p50: number };
  ticketsWithout: { p50: number };
  rebuildMs: number;
  goalMs: number;
}

export const attention: BenchDef = {
  id: "attention",
  section: "g",
  title: "What needs attention",
  script: "bench/attention.ts",
  reactServer: true,
  rows(json, bench) {
    const r = json as unknown as AttentionBench;
    return [
      {
        bench,
        metric: `terminal states and alerts per cycle at ${int(r.sales)} mirrored sales (${r.terminals} terminals, ${r.cycles} cycles): p50 / p95 / max`,
        value: `${ms(r.evaluate.p50)} / ${ms(r.evaluate.p95)} / ${ms(r.evaluate.max)}`,
        goal: `p95 < ${r.goalMs} ms`,
        status: check(r.evaluate.p95 < r.goalMs),
      },
      {
        bench,
        metric: "a tail page of 200 sales written: p50 with the attention triggers / without",
        value: `${ms(r.pageWith.p50)} / ${ms(r.pageWithout.p50)}`,
        goal: "—",
        status: "info",
      },
      {
        bench,
        metric:
          "a page of 200 tickets whose wristbands have top-ups: p50 with the top-ups-by-ticket-type triggers / without",
        value: `${ms(r.ticketsWith.p50)} / ${ms(r.ticketsWithout.p50)}`,
        goal: "—",
        status: "info",
      },
      {
        bench,
        metric: `the full scan the triggers avoid: rebuilding the device tables from ${int(r.records)} records`,
        value: `${(r.rebuildMs / 1000).toFixed(1)} s`,
        goal: "—",
        status: "info",
      },
    ];
  },
  method() {
    return "The dashboard store of the read benchmarks (1,000,000 mirrored sales, 200,000 top-ups, 200,000 scans; bench/dashboard-store.ts), whose device tables the mirror's triggers keep (migration 011). Each cycle writes a tail page of 200 new sales (one in 25 late) through the mirror's upsert, then runs `evaluateAttention` (the worker's after-cycle work: every terminal's state and every alert rule, one transaction), the clock moving 30 s per cycle; `BENCH_CYCLES` cycles after two warm-up cycles. Every other page is written with the attention triggers disabled, to show their cost. Then as many pages of 200 tickets, each naming a wristband with top-ups (their top-ups move under the ticket's type, migration 015), every other one with those triggers disabled. The pages are deleted afterwards. Last, `attention_recompute()` rebuilds the device tables from the whole mirror: the scan an evaluation does not do.";
  },
};
