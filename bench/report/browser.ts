import { type BenchDef, check, type Row } from "./types";

export interface BrowserBench {
  specsPassed: boolean;
  runs: number;
  lighthouse: { page: string; scores: number[]; median: number }[];
  /** Null: not measured (the instances spec needs PostgreSQL; a spec that failed first). */
  takeoverSeconds: number | null;
  firstFiguresSeconds: number | null;
}

const PERFORMANCE_GOAL = 0.9;
const TAKEOVER_GOAL_S = 60;
const FIRST_FIGURES_GOAL_S = 15;
const points = (score: number) => String(Math.round(score * 100));
const seconds = (s: number | null) => (s === null ? "not measured" : `${s.toFixed(1)} s`);

export function browserRows(r: BrowserBench, bench: string): Row[] {
  const rows: Row[] = [
    {
      bench,
      metric: "the browser tests that measure (e2e/lighthouse, instances, live-first)",
      value: r.specsPassed ? "passed" : "failed",
      goal: "pass",
      status: check(r.specsPassed),
    },
  ];
  for (const page of r.lighthouse)
    rows.push({
      bench,
      metric: `Lighthouse performance, ${page.page}: median of ${page.scores.length} runs (runs: ${page.scores.map(points).join(", ")})`,
      value: points(page.median),
      goal: `>= ${points(PERFORMANCE_GOAL)}`,
      status: check(page.scores.length > 0 && page.median >= PERFORMANCE_GOAL),
    });
  if (r.lighthouse.length === 0)
    rows.push({
      bench,
      metric: "Lighthouse performance",
      value: "not measured",
      goal: ">= 90",
      status: "FAIL",
    });
  rows.push(
    {
      bench,
      metric: "two instances: a killed sync leader's takeover by the other",
      value: seconds(r.takeoverSeconds),
      goal: `< ${TAKEOVER_GOAL_S} s`,
      status: check(r.takeoverSeconds !== null && r.takeoverSeconds < TAKEOVER_GOAL_S),
    },
    {
      bench,
      metric: "a console's first connection: sign-in to today's figures on the overview",
      value: seconds(r.firstFiguresSeconds),
      goal: `< ${FIRST_FIGURES_GOAL_S} s`,
      status: check(r.firstFiguresSeconds !== null && r.firstFiguresSeconds < FIRST_FIGURES_GOAL_S),
    },
  );
  return rows;
}

export const browser: BenchDef = {
  id: "browser",
  section: "h",
  title: "In the browser: Lighthouse performance, sync takeover, first figures",
  script: "bench/browser.ts",
  reactServer: false,
  needsBuild: true,
  rows: (json, bench) => browserRows(json as unknown as BrowserBench, bench),
  method(json) {
    const runs = (json as unknown as BrowserBench | undefined)?.runs ?? 5;
    return `The browser tests measure these on the way (e2e/measures.ts) and \`npm test\` asserts only what users get; this step runs them with Playwright against a fresh sandbox (\`npm start\` of the current build, as \`npm test\` does) and holds the figures to their goals. **Lighthouse** (e2e/lighthouse.spec.ts, Debian's Chromium): ${runs} runs per page, desktop preset on /login, the overview, /terminals and /alerts, the mobile preset (a phone, slow 4G and a 4× slower CPU, simulated) on the staff's /search; the median performance score counts (a busy machine only makes a run slower). **Takeover** (e2e/instances.spec.ts): two \`next start\` instances on one PostgreSQL database; the sync leader is killed (SIGKILL) with a page request in flight; from the kill to the other instance's log saying it runs the sync worker (it retries the leadership every 30 s). **First figures** (e2e/live-first.spec.ts): an API of its own (demo seed at scale 0.2, simulator off) and a console that never synced, a key of 30 reads/min; from the click on Sign in to today's total, from the upstream's summary, on the overview.`;
  },
};
