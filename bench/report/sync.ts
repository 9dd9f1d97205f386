import { type BenchDef, check, int, type Row } from "./types";

export interface SyncFigures {
  total: number;
  minimum: number;
  ratio: number;
  salesRequests: number;
  salesMinimum: number;
  salesRatio: number;
  summaries: number;
  rewalks: number;
  rateLimited: number;
  noAnswer: number;
}

export interface SyncResult {
  scale: number;
  volumes: { sales: number; topups: number; scans: number; tickets: number; days: number };
  virtual?: {
    requests: SyncFigures;
    readLimit: number;
    virtualMinutes: number;
    realSeconds: number;
    quotaPauses: number;
    floorFullQuotaMinutes: number;
    floorWorkerShareMinutes: number;
    floorFixedWindowsMinutes: number;
    timeRatio: number;
    matchedDays: number;
    errors: { resource: string; code: string }[];
  };
  lifted?: {
    requests: SyncFigures;
    records: number;
    seconds: number;
    recordsPerSecond: number;
    salesPerSecond: number;
    matchedDays: number;
    errors: { resource: string; code: string }[];
  };
}

export const sync: BenchDef = {
  id: "sync",
  section: "b",
  title: "Sync worker",
  script: "bench/sync-mirror.ts",
  reactServer: true,
  rows(json, bench) {
    const rows: Row[] = [];
    const r = json as unknown as SyncResult;
    const v = r.virtual;
    if (v) {
      const q = v.requests;
      rows.push(
        {
          bench,
          metric: `sales requests / ceil(${int(r.volumes.sales)}/200)`,
          value: `${q.salesRatio.toFixed(4)} (${int(q.salesRequests)} / ${int(q.salesMinimum)})`,
          goal: "<= 1.05",
          status: check(q.salesRatio <= 1.05),
        },
        {
          bench,
          metric: "all requests / Σ ceil(N/200) of every mirrored resource",
          value: `${q.ratio.toFixed(4)} (${int(q.total)} / ${int(q.minimum)}; ${int(q.rewalks)} of them pages walked by day, ${q.summaries} summaries)`,
          goal: "<= 1.05",
          status: check(q.ratio <= 1.05),
        },
        {
          bench,
          metric: `429 answers, default quota (${v.readLimit} reads/min, 40 % kept in reserve)`,
          value: String(q.rateLimited),
          goal: "0",
          status: check(q.rateLimited === 0),
        },
        {
          bench,
          metric: "VIRTUAL (quota-bound) time / floor at the worker's 72 reads/min",
          value: `${v.timeRatio.toFixed(3)} (${v.virtualMinutes.toFixed(1)} virtual min / ${v.floorWorkerShareMinutes.toFixed(1)} min)`,
          goal: "<= 1.05",
          status: check(v.timeRatio <= 1.05),
        },
        {
          bench,
          metric: "VIRTUAL time / floor at the full 120 reads/min",
          value: `${(v.virtualMinutes / v.floorFullQuotaMinutes).toFixed(3)} (${v.virtualMinutes.toFixed(1)} / ${v.floorFullQuotaMinutes.toFixed(1)} min)`,
          goal: "≈ 1/0.6 by design",
          status: "info",
        },
        {
          bench,
          metric: "default quota: days equal to the sales summary, errors",
          value: `${v.matchedDays} of ${r.volumes.days} days; ${v.errors.length ? v.errors.map((e) => `${e.resource}: ${e.code}`).join(", ") : "no errors"}`,
          goal: `${r.volumes.days} days, no errors`,
          status: check(v.matchedDays === r.volumes.days && v.errors.length === 0),
        },
      );
    }
    const l = r.lifted;
    if (l) {
      rows.push(
        {
          bench,
          metric: "quota lifted (100,000 reads/min): records/s (wall clock)",
          value: `${int(l.recordsPerSecond)} records/s (${int(l.salesPerSecond)} sales/s)`,
          goal: "—",
          status: "info",
        },
        {
          bench,
          metric: "quota lifted: time to mirror everything",
          value: `${(l.seconds / 60).toFixed(1)} min (${int(l.records)} records, ${int(l.requests.total)} requests)`,
          goal: "—",
          status: "info",
        },
        {
          bench,
          metric: "quota lifted: days equal to the sales summary, errors",
          value: `${l.matchedDays} of ${r.volumes.days} days; ${l.errors.length ? l.errors.map((e) => `${e.resource}: ${e.code}`).join(", ") : "no errors"}`,
          goal: `${r.volumes.days} days, no errors`,
          status: check(l.matchedDays === r.volumes.days && l.errors.length === 0),
        },
      );
    }
    return rows;
  },
  method(json) {
    const sync = json as unknown as SyncResult | undefined;
    return sync
      ? `The real \`SyncWorker\` and \`UpstreamClient\` mirror the Integration API store seeded at scale ${sync.scale} (${int(sync.volumes.sales)} sales, ${int(sync.volumes.topups)} top-ups, ${int(sync.volumes.scans)} scans, ${int(sync.volumes.tickets)} tickets, every status) into a fresh PGlite dashboard store, cycle after cycle until the mirror holds every sale. Every upstream request is counted by a wrapper around the client's fetch (each attempt, retries included). The minimum is ceil(N/200) per list (at least one) plus one request each for the event, days, zones and ticket types; the per-day sales summaries of the checksum are counted in the total, not in the minimum. **Default quota, virtual time:** the API runs in-process (Hono \`app.request\` as the client's fetch) with its real rate limiter at the default 120 reads/min; limiter, client and worker share a virtual clock = real clock + every sleep skipped, so a quota pause returns at once and moves the clock by its length. The elapsed time is therefore what a real run would take (processing included) without the waiting; it is compared with requests/72 min (the worker's 60 % share) and requests/120 min (the whole quota). The time goal <= 1.05 is this report's, by analogy with the request goal; with fixed 60-s windows a client can beat requests/72 min by up to one window (the last window's requests go out at once), which shows at small scales. **Quota lifted, wall clock:** the API as its own process over HTTP on the same store, a key with 100,000 reads/min (the admin API's maximum), the worker on the real clock; records/s counts every mirrored record (sales, top-ups, scans, tickets, catalog, review queue).`
      : "Not run.";
  },
};
