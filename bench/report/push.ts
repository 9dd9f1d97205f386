import { type BenchDef, check, type Row } from "./types";

interface Stats {
  n: number;
  p50: number;
  p95: number;
  max: number;
}

export interface PushBench {
  rate: number;
  scale: number;
  /** Seconds measured, from the first mirror done. */
  seconds: number;
  firstMirrorSeconds: number;
  /** Seconds the older days were still walked after the first mirror (null: not done by the end). */
  walkingSeconds: number | null;
  overviewAnswers: number;
  /** A sale's created_at to the overview's answer in Chromium showing it, seconds, by phase. */
  overview: { walking: Stats; after: Stats };
  /** A sale's created_at to its first sight in the mirror, seconds, by phase. */
  lag: { walking: Stats; after: Stats };
  streams: { streams: number; seconds: number; upstream: number; worker: number; cpuPerSecond: number }[];
}

const OVERVIEW_GOAL_S = 5;
const LAG_GOAL_S = 3;
const MIN_SECONDS = 300;
const s = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)} s` : "n/a");
const phases = { walking: "while older days are walked", after: "after the walk" } as const;

export function pushRows(r: PushBench, bench: string): Row[] {
  const rows: Row[] = [
    {
      bench,
      metric: `measured from the first mirror done (${r.firstMirrorSeconds.toFixed(0)} s after start), ${r.rate} events/s; older days walked for ${r.walkingSeconds === null ? "the whole run" : `${r.walkingSeconds.toFixed(0)} s`} of it`,
      value: `${r.seconds.toFixed(0)} s`,
      goal: `>= ${MIN_SECONDS} s, both phases`,
      status: check(r.seconds >= MIN_SECONDS && r.overview.walking.n > 0 && r.overview.after.n > 0),
    },
  ];
  for (const phase of ["walking", "after"] as const) {
    const o = r.overview[phase];
    const l = r.lag[phase];
    rows.push(
      {
        bench,
        metric: `a sale on the manager's overview in Chromium after its created_at, p95 ${phases[phase]} (${o.n} sales; p50 ${s(o.p50)}, max ${s(o.max)})`,
        value: s(o.p95),
        goal: `<= ${OVERVIEW_GOAL_S} s`,
        status: check(o.n > 0 && o.p95 <= OVERVIEW_GOAL_S),
      },
      {
        bench,
        metric: `mirror lag p95 ${phases[phase]} (${l.n} sales; p50 ${s(l.p50)}, max ${s(l.max)})`,
        value: s(l.p95),
        goal: `<= ${LAG_GOAL_S} s`,
        status: check(l.n > 0 && l.p95 <= LAG_GOAL_S),
      },
    );
  }
  const withStreams = r.streams.find((w) => w.streams > 0);
  const without = r.streams.find((w) => w.streams === 0);
  if (withStreams) {
    const added = withStreams.upstream - withStreams.worker;
    rows.push({
      bench,
      metric: `upstream reads not made by the sync worker while ${withStreams.streams} streams were open (${withStreams.seconds.toFixed(0)} s: ${withStreams.upstream} reads, ${withStreams.worker} the worker's)`,
      value: String(added),
      goal: "0",
      status: check(added <= 0),
    });
  }
  if (withStreams && without) {
    const perStream = ((withStreams.cpuPerSecond - without.cpuPerSecond) / withStreams.streams) * 1000;
    rows.push({
      bench,
      metric: `the dashboard's CPU per open stream (CPU ${withStreams.cpuPerSecond.toFixed(3)} s/s with ${withStreams.streams} streams, ${without.cpuPerSecond.toFixed(3)} s/s with none; the sync worker runs in both)`,
      value: `${perStream.toFixed(2)} ms/s`,
      goal: "reported",
      status: "info",
    });
  }
  return rows;
}

export const push: BenchDef = {
  id: "push",
  section: "i",
  title: "Pushed to the screen: a sale on the overview in Chromium, mirror lag, the cost of open streams",
  script: "bench/push.ts",
  reactServer: true,
  needsBuild: true,
  rows: (json, bench) => pushRows(json as unknown as PushBench, bench),
  method(json) {
    const r = json as unknown as PushBench | undefined;
    return `The sandbox's Integration API as its own process (demo seed at scale ${r?.scale ?? "BENCH_PUSH_SCALE"}, its terminal simulator at ${r?.rate ?? 20} events/s) behind a counting proxy; the dashboard as \`next start\` of the build with its sync worker (120 reads/min, cycle 30 s, tail 2.5 s, the defaults) on a fresh PostgreSQL schema. From the moment the first mirror is done (today walked), for BENCH_PUSH_S (300) s and at least until the older days are walked: a Chromium page on the overview notes every overview answer it gets (pushed by the stream, the 30 s poll as the floor) with today's sales count; a sale is on the overview from the first answer whose count reaches its rank among today's completed sales by arrival (the tail mirrors in arrival order), minus its \`created_at\`. The mirror is read every 100 ms for the mirror lag (first seen minus \`created_at\`). Each sale counts in the phase of its \`created_at\`: while the older days were still walked, or after. Streams: 60 s with BENCH_PUSH_STREAMS (50) open streams (GET /api/stream with the session, read by Node), then 60 s with none; upstream reads the proxy saw minus those the sync worker counted, and the dashboard's CPU time (every process of its group, /proc) per second in each window.`;
  },
};
