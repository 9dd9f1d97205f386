import { expect } from "vitest";
import type { Db } from "@/lib/db/db";
import { mirrorDayTotals, mirrorTables } from "@/lib/server/store/mirror";
import { summaryTotals } from "@/lib/server/sync/checksum";
import { SyncWorker, type SyncWorkerOptions } from "@/lib/server/sync/worker";
import { defaultSleep, UpstreamClient } from "@/lib/server/upstream/client";
import type { FetchLike } from "@/lib/server/upstream/types";
import { FakeClock, seededRandom } from "./fake-clock";
import { createFakeUpstream, type FakeUpstream } from "./fake-upstream";

/** The sync worker against the fake upstream on a fake clock, on a store emptied first. */

export const KEY = `eak_test_${"k".repeat(43)}`;

export interface HarnessOptions {
  readLimit?: number;
  seed?: number;
  chaos?: boolean;
  realSleep?: boolean;
  intervalMs?: number;
  worker?: Partial<SyncWorkerOptions>;
}

const tables = [...mirrorTables, "sync_errors", "sync_worker", "sync_requests"];

export async function syncHarness(store: Db, options: HarnessOptions = {}) {
  const clock = new FakeClock(Date.parse("2026-07-11T21:00:00.000Z"));
  const up = createFakeUpstream({
    apiKey: KEY,
    clock,
    seed: options.seed ?? 7,
    readLimit: options.readLimit,
  });
  if (options.chaos) Object.assign(up.chaos, { p500: 0.05, p429: 0.04, pNetwork: 0.04 });
  const traffic = recordTraffic(up.fetch, clock.now);
  const client = new UpstreamClient({
    baseUrl: "http://fake.test/v1",
    apiKey: KEY,
    fetch: traffic.fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: seededRandom(3),
  });
  const db = store;
  for (const table of tables) await db.query(`delete from ${table}`);
  const logs: string[] = [];
  const log = {
    info: (m: string) => void logs.push(`info ${m}`),
    warn: (m: string) => void logs.push(`warn ${m}`),
    error: (m: string) => void logs.push(`error ${m}`),
  };
  const worker = new SyncWorker({
    db,
    client,
    intervalMs: options.intervalMs ?? 30_000,
    log,
    now: clock.now,
    sleep: options.realSleep ? defaultSleep : clock.sleep,
    overlapMs: 5 * 60_000,
    ...options.worker,
  });
  return { clock, up, client, db, worker, logs, traffic };
}

/** Every request (path, query and when on the clock) and every record id each list answer carried, in order. */
function recordTraffic(fetch: FetchLike, now: () => Date) {
  const requests: { path: string; query: URLSearchParams; at: number }[] = [];
  const listed = new Map<string, string[]>();
  const wrapped: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    const path = url.pathname.replace(/^\/v1/, "");
    requests.push({ path, query: url.searchParams, at: now().getTime() });
    const res = await fetch(input, init);
    if (res.ok) {
      const body = (await res.clone().json()) as { object?: string; data?: { id: string }[] };
      if (body.object === "list")
        listed.set(path, [...(listed.get(path) ?? []), ...(body.data ?? []).map((x) => x.id)]);
    }
    return res;
  };
  /** Ids a list answered more than once. */
  const repeated = (path: string) => {
    const seen = new Set<string>();
    return (listed.get(path) ?? []).filter((id) => seen.has(id) || !seen.add(id));
  };
  return { fetch: wrapped, requests, listed, repeated };
}

export const ids = async (db: Db, table: string) =>
  (await db.query<{ id: string }>(`select id from ${table} order by id`)).map((r) => r.id);
export const sorted = (items: { id: string }[]) => items.map((x) => x.id).sort();

/** The mirror equals what the key can see upstream: same ids, same rows, same totals per day. */
export async function expectMirrorEqualsUpstream(db: Db, up: FakeUpstream) {
  expect(await ids(db, "m_sales")).toEqual(sorted(up.visible.sales()));
  expect(await ids(db, "m_topups")).toEqual(sorted(up.visible.topups()));
  expect(await ids(db, "m_scans")).toEqual(sorted(up.visible.scans()));
  const tickets = await db.query<{ id: string; status: string; updated_at: string }>(
    "select id, status, updated_at from m_tickets order by id",
  );
  expect(tickets.map((t) => [t.id, t.status, new Date(t.updated_at).toISOString()])).toEqual(
    [...up.tickets.values()]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((t) => [t.id, t.status, t.updated_at]),
  );
  expect(await ids(db, "m_review_wristbands")).toEqual(
    sorted([...up.wristbands.values()].filter((w) => w.status === "pending_review")),
  );
  expect(await ids(db, "m_days")).toEqual(sorted(up.days));
  const statuses = await db.query<{ id: string; status: string }>("select id, status from m_sales");
  const upstreamSales = new Map(up.visible.sales().map((s) => [s.id, s.status]));
  for (const row of statuses) expect(row.status).toBe(upstreamSales.get(row.id));
  for (const day of up.days) {
    expect(await mirrorDayTotals(db, day.id)).toEqual(summaryTotals(up.summary(day.id)));
  }
}
