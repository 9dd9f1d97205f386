import { afterAll, beforeAll, expect } from "vitest";
import { TerminalSimulator } from "@/integration-api/simulator/terminal-simulator";
import { createTestApi, type TestApi } from "@/integration-api/testing/test-api";
import type { SalesSummary } from "@/lib/contract";
import { systemClock } from "@/lib/contract/clock";
import type { Db } from "@/lib/db/db";
import { mirrorDayTotals, mirrorTables } from "@/lib/server/store/mirror";
import { summaryTotals } from "@/lib/server/sync/checksum";
import { SyncWorker, type SyncWorkerOptions } from "@/lib/server/sync/worker";
import { defaultSleep, UpstreamClient } from "@/lib/server/upstream/client";
import { openTestDashboardStore } from "./dashboard-store";
import { FakeClock, seededRandom } from "./fake-clock";
import { READ_SCOPES } from "./real-api-sync";
import { withFaults } from "./upstream-faults";

/**
 * The sync worker against the real Integration API in-process: its routes, rate limiter (on a
 * clock the test moves, shared with the client and the worker), pagination, key restrictions and
 * kept summary, seeded with the demo event (four days: two past, today, one to come). Between the
 * two sit the fault hooks (upstream-faults.ts) for what the service will not do on demand.
 *
 * One upstream per test file (`syncUpstream`: the service, its clock, its terminals); one harness
 * per test (`syncHarness`): a key of its own (so read windows of its own), the hooks, a client and a
 * worker on a store emptied first. What the upstream holds grows over a file's tests; every check
 * compares the mirror with what the service answers now.
 */

export const HARNESS_START = Date.parse("2026-07-11T21:00:00.000Z");
const BASE_URL = "http://integration-api.test/v1";
const HOUR = 3_600_000;

export async function syncUpstream(options: { scale?: number; random?: number } = {}) {
  const clock = new FakeClock(HARNESS_START);
  const api = await createTestApi({
    scale: options.scale ?? 0.01,
    random: options.random,
    clock: clock.now,
  });
  const days = await api.db.query<{ id: string; name: string; starts_at: string; ends_at: string }>(
    "select id, name, starts_at, ends_at from days order by starts_at",
  );
  const terminals = new TerminalSimulator(api.services, {
    rate: 20,
    seed: 11,
    clock: clock.now,
    offlineChance: 0.002,
    maxOfflineMinutes: 2,
  });
  const pick = seededRandom(5);
  let belowSerial = 0;

  /** A completed sale (or `status`) recorded now, at `occurredAt` (an offline terminal's) if given. */
  async function addSale(o: { occurredAt?: number; status?: "completed" | "pending" } = {}): Promise<string> {
    const wristbands = await api.db.query<{ id: string }>(
      "select id from wristbands where status = 'active' order by id",
    );
    const wristband = wristbands[Math.floor(pick() * wristbands.length)]!;
    const occurredAt = new Date(o.occurredAt ?? clock.ms);
    return api.db.transaction((tx) =>
      api.services.writes.recordSale(
        tx,
        {
          wristbandId: wristband.id,
          lines: [
            {
              product_id: "harness-beer",
              name: "Beer",
              quantity: 1 + Math.floor(pick() * 3),
              unit_price: 650,
              included_quantity: 0,
              tax_type: "VAT",
              rate: 21,
            },
          ],
          paymentMethod: "card",
          online: o.occurredAt === undefined,
          status: o.status ?? "completed",
        },
        { occurredAt, createdAt: clock.now(), deviceId: "bar-harness" },
      ),
    );
  }

  return {
    clock,
    api,
    /** The event's days in order: today is the third (the clock starts in it), the fourth is to come. */
    days,
    /** An instant three hours into day `index`. */
    dayAt: (index: number) => Date.parse(days[index]!.starts_at) + 3 * HOUR,
    addSale,
    /** The demo terminals: `n` events now (sales, top-ups, refunds, check-ins, scans; some offline). */
    async activity(n: number) {
      for (let i = 0; i < n; i++) await terminals.step();
    },
    /**
     * A completed sale of an offline terminal, from `occurredAt`, whose id falls below `cursor`:
     * the upstream's ids need not follow arrival exactly (several servers), and only the per-day
     * checksum can find such a record.
     */
    async lateSaleBelow(cursor: string, occurredAt: number): Promise<string> {
      const id = await addSale({ occurredAt });
      const below = `${cursor.slice(0, 8)}${"0".repeat(10)}${(++belowSerial).toString(16).padStart(6, "0")}`;
      expect(below < cursor).toBe(true);
      await api.db.query("update sales set id = $1 where id = $2", [below, id]);
      return below;
    },
    /** A sale listed as pending completes: same id, another status. */
    completeSale: (id: string) => api.db.query("update sales set status = 'completed' where id = $1", [id]),
    /** A sale the upstream no longer lists (out of the key's view). */
    removeSale: (id: string) => api.db.query("delete from sales where id = $1", [id]),
    /** A wristband's status changes now (into or out of the review queue). */
    setWristbandStatus: (id: string, status: "active" | "pending_review") =>
      api.db.query("update wristbands set status = $2, updated_at = $3 where id = $1", [
        id,
        status,
        clock.now(),
      ]),
    close: () => api.close(),
  };
}

export type SyncUpstream = Awaited<ReturnType<typeof syncUpstream>>;

/**
 * One dashboard store and one in-process upstream for a test file (each takes seconds to start),
 * opened before its tests and closed after them; `use` receives both.
 */
export function storeAndUpstreamPerFile(use: (opened: { store: Db; up: SyncUpstream }) => void) {
  let store: Db | undefined;
  let up: SyncUpstream | undefined;
  beforeAll(async () => {
    store = await openTestDashboardStore();
    up = await syncUpstream();
    use({ store, up });
  });
  afterAll(async () => {
    await store?.close();
    await up?.close();
  });
}

export interface HarnessOptions {
  /** Reads per minute of the worker's key (default 120). */
  readLimit?: number;
  /** The key sees only some ticket types: records of the others are out of its view. */
  restricted?: boolean;
  /** Seed of the chaos and of the client's jitter. */
  seed?: number;
  chaos?: boolean;
  /** The worker sleeps for real (its loop on real timers) instead of moving the clock. */
  realTime?: boolean;
  intervalMs?: number;
  worker?: Partial<SyncWorkerOptions>;
}

const tables = [...mirrorTables, "sync_errors", "sync_worker", "sync_requests"];

/** List pages of 20 (the worker's default is 200): a walk takes several pages, as at a real event's size. */
export const HARNESS_PAGE_SIZE = 20;

export async function syncHarness(store: Db, up: SyncUpstream, options: HarnessOptions = {}) {
  const clock = up.clock;
  const types = await up.api.db.query<{ id: string }>("select id from ticket_types order by id");
  const restrictions = options.restricted
    ? { ticket_type_ids: types.slice(1).map((t) => t.id), day_ids: [] }
    : undefined;
  const { key } = await up.api.createKey({
    name: "dashboard sync",
    scopes: READ_SCOPES,
    restrictions,
    rate_limits: { read: options.readLimit ?? 120 },
  });
  // The referee reads what the same key sees, outside its quota and the hooks.
  const referee = (
    await up.api.createKey({
      name: "referee",
      scopes: READ_SCOPES,
      restrictions,
      rate_limits: { read: 100_000 },
    })
  ).key;
  const faults = withFaults(async (url, init) => up.api.app.request(url, init), {
    now: clock.now,
    random: seededRandom(options.seed ?? 7),
  });
  if (options.chaos) Object.assign(faults.chaos, { p500: 0.05, p429: 0.04, pNetwork: 0.04, pShort: 0.2 });
  const client = new UpstreamClient({
    baseUrl: BASE_URL,
    apiKey: key,
    fetch: faults.fetch,
    now: options.realTime ? systemClock : clock.now,
    sleep: options.realTime ? defaultSleep : clock.sleep,
    random: seededRandom(options.seed ?? 3),
  });
  for (const table of tables) await store.query(`delete from ${table}`);
  const logs: string[] = [];
  const log = {
    info: (m: string) => void logs.push(`info ${m}`),
    warn: (m: string) => void logs.push(`warn ${m}`),
    error: (m: string) => void logs.push(`error ${m}`),
  };
  const worker = new SyncWorker({
    db: store,
    client,
    intervalMs: options.intervalMs ?? 30_000,
    log,
    now: options.realTime ? undefined : clock.now,
    sleep: options.realTime ? defaultSleep : clock.sleep,
    overlapMs: 5 * 60_000,
    pageSize: HARNESS_PAGE_SIZE,
    ...options.worker,
  });
  return { clock, up, key, faults, client, db: store, worker, logs, view: upstreamView(up.api, referee) };
}

export type SyncHarness = Awaited<ReturnType<typeof syncHarness>>;

/** What a key sees upstream, read through the service itself. */
export function upstreamView(api: TestApi, key: string) {
  const ids = async (path: string) => (await api.walk(path, key)).map((x) => x.id).sort();
  return {
    ids,
    walk: <T extends { id: string }>(path: string) => api.walk<T>(path, key),
    async summary(dayId: string): Promise<SalesSummary> {
      const res = await api.get<SalesSummary>(`/v1/reports/sales-summary?day_id=${dayId}`, key);
      expect(res.status).toBe(200);
      return res.body;
    },
    async days(): Promise<{ id: string; name: string }[]> {
      return (await api.get<{ data: { id: string; name: string }[] }>("/v1/days", key)).body.data;
    },
  };
}

export const ids = async (db: Db, table: string) =>
  (await db.query<{ id: string }>(`select id from ${table} order by id`)).map((r) => r.id);
export const sorted = (items: { id: string }[]) => items.map((x) => x.id).sort();

/** The mirror equals what the key can see upstream: same ids, same rows, same totals per day. */
export async function expectMirrorEqualsUpstream(h: Pick<SyncHarness, "db" | "view">) {
  const { db, view } = h;
  expect(await ids(db, "m_sales")).toEqual(await view.ids("/v1/transactions"));
  expect(await ids(db, "m_topups")).toEqual(await view.ids("/v1/topups"));
  expect(await ids(db, "m_scans")).toEqual(await view.ids("/v1/checkins"));
  const tickets = await db.query<{ id: string; status: string; updated_at: string }>(
    "select id, status, updated_at from m_tickets order by id",
  );
  const upstreamTickets = await view.walk<{ id: string; status: string; updated_at: string }>("/v1/tickets");
  expect(tickets.map((t) => [t.id, t.status, new Date(t.updated_at).toISOString()])).toEqual(
    upstreamTickets
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((t) => [t.id, t.status, new Date(t.updated_at).toISOString()]),
  );
  expect(await ids(db, "m_review_wristbands")).toEqual(
    await view.ids("/v1/wristbands?status=pending_review"),
  );
  const days = await view.days();
  expect(await ids(db, "m_days")).toEqual(sorted(days));
  const statuses = new Map(
    (await view.walk<{ id: string; status: string }>("/v1/transactions")).map((s) => [s.id, s.status]),
  );
  for (const row of await db.query<{ id: string; status: string }>("select id, status from m_sales"))
    expect(row.status).toBe(statuses.get(row.id));
  for (const day of days)
    expect(await mirrorDayTotals(db, day.id)).toEqual(summaryTotals(await view.summary(day.id)));
}
