import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import {
  expectMirrorEqualsUpstream,
  HARNESS_PAGE_SIZE,
  type HarnessOptions,
  ids,
  type SyncUpstream,
  storeAndUpstreamPerFile,
  syncHarness,
} from "@/lib/testing/sync-harness";
import { backfillRows } from "../store/backfill";
import { tailTables } from "../store/mirror";
import { tailStartOf } from "./backfill";
import { SyncWorker } from "./worker";

/**
 * Today first: the day-by-day first mirror, the tail that follows it, quota and restarts (issue 12),
 * against the real Integration API in-process (lib/testing/sync-harness.ts). Its demo event has
 * four days: two past, today (the clock starts in it) and one to come.
 */

let store: Db;
let up: SyncUpstream;
storeAndUpstreamPerFile((opened) => ({ store, up } = opened));

const setup = (options: HarnessOptions = {}) => syncHarness(store, up, options);
type Harness = Awaited<ReturnType<typeof setup>>;

const pending = async (db: Db) => (await backfillRows(db)).filter((r) => !r.done);
const dayWalked = async (db: Db, dayId: string) => {
  const rows = (await backfillRows(db)).filter((r) => r.dayId === dayId);
  return rows.length > 0 && rows.every((r) => r.done);
};

/** Steps the worker's loop until `until` holds (each step moves the fake clock as it sleeps). */
async function stepUntil(h: Harness, until: () => Promise<boolean>, max = 5000) {
  for (let i = 0; i < max; i++) {
    if (await until()) return;
    await h.worker.step();
  }
  throw new Error("the worker never got there");
}

/** The day filter of each list request to `path`, in order, without repeats in a row. */
function dayOrder(h: Harness, path: string) {
  const order: string[] = [];
  for (const r of h.faults.requests) {
    const day = r.query.get("day_id");
    if (r.path === path && day && order.at(-1) !== day) order.push(day);
  }
  return order;
}

describe("the first mirror, today first", () => {
  it("walks the current day first, then the days before it newest first, a record twice only where a day's walk meets the tail", async () => {
    const h = await setup({ seed: 21 });
    const [d1, d2, d3, d4] = up.days; // the clock stands in day 3; day 4 is to come
    const report = await h.worker.runOnce();
    await expectMirrorEqualsUpstream(h);
    const rows = await backfillRows(h.db);
    for (const [path, resource] of [
      ["/transactions", "sales"],
      ["/topups", "topups"],
      ["/checkins", "scans"],
    ] as const) {
      expect(dayOrder(h, path), path).toEqual([d3!.id, d2!.id, d1!.id, d4!.id]);
      // The cycle's report counts the walk's pages and the tail's together.
      const mirrored = (await ids(h.db, tailTables[resource])).length;
      const listed = h.faults.requests.filter((r) => r.path === path).length;
      expect(report.resources[resource]?.requests, path).toBe(listed);
      expect(report.resources[resource]?.records, path).toBeGreaterThanOrEqual(mirrored);
      expect(report.resources[resource]?.records, path).toBeLessThanOrEqual(
        mirrored + h.faults.repeated(path).length,
      );
      // A record listed twice can only be one above the tail's start that an older day's last page
      // also held (that page is where the day's walk stops): never one the walks had between them.
      const start = tailStartOf(rows, resource) as string;
      for (const id of h.faults.repeated(path)) expect(id > start, `${path} ${id}`).toBe(true);
      // 2 older days with records, a page each
      expect(h.faults.repeated(path).length, path).toBeLessThanOrEqual(2 * HARNESS_PAGE_SIZE);
    }
    // The summaries come before any record, today's first; tickets only once today is walked.
    const first = (p: (r: (typeof h.faults.requests)[number]) => boolean) => h.faults.requests.findIndex(p);
    const firstSummary = first((r) => r.path === "/reports/sales-summary");
    expect(h.faults.requests[firstSummary]!.query.get("day_id")).toBe(d3!.id);
    expect(firstSummary).toBeLessThan(first((r) => r.path === "/transactions"));
    const lastToday = h.faults.requests.findLastIndex(
      (r) => r.query.get("day_id") === d3!.id && r.path === "/checkins",
    );
    expect(first((r) => r.path === "/tickets")).toBeGreaterThan(lastToday);
    expect(await pending(h.db)).toEqual([]);
  });

  it("keeps today's summary in the store before the first record is mirrored", async () => {
    const h = await setup({ seed: 22 });
    await h.worker.step(); // the first cycle: catalog and summaries only
    const [row] = await h.db.query<{ day_id: string; summary: { sales: { count: number } } }>(
      "select day_id, summary from sync_day_summaries where day_id = $1",
      [up.days[2]!.id],
    );
    expect(row!.summary.sales.count).toBe((await h.view.summary(up.days[2]!.id)).sales.count);
    expect(await ids(h.db, "m_sales")).toEqual([]);
    expect((await pending(h.db)).length).toBe(3 * up.days.length);
  });

  it("follows the tail while older days are still being walked", async () => {
    const h = await setup({ seed: 23 });
    const [, d2, d3] = up.days;
    await stepUntil(h, () => dayWalked(h.db, d3!.id));
    expect(await dayWalked(h.db, d2!.id)).toBe(false);
    const sale = await up.addSale(); // a sale reaching the upstream now
    await stepUntil(h, async () => (await ids(h.db, "m_sales")).includes(sale), 200);
    expect((await pending(h.db)).length).toBeGreaterThan(0); // the backfill was not over
    await stepUntil(h, async () => (await pending(h.db)).length === 0);
    await h.worker.runOnce();
    await expectMirrorEqualsUpstream(h);
    expect(h.faults.stats.rateLimited).toBe(0);
  });

  it("spreads the tail polls over every window of the walk of older days", async () => {
    // Pages of 10: the older days' walk lasts several windows, as at a larger event.
    const h = await setup({ seed: 30, readLimit: 60, worker: { pageSize: 10 } });
    await stepUntil(h, () => dayWalked(h.db, up.days[2]!.id));
    h.clock.advance(61_000); // today's walk spent its window: measure from the next one
    const from = h.clock.ms;
    let nextSaleAt = from;
    await stepUntil(h, async () => {
      for (; nextSaleAt <= h.clock.ms; nextSaleAt += 1000) await up.addSale();
      return (await pending(h.db)).length === 0;
    });
    const to = h.clock.ms;
    const polls = h.faults.requests
      .filter((r) => r.path === "/transactions" && !r.query.has("day_id") && r.at >= from)
      .map((r) => r.at);
    const gaps = [...polls, to].map((at, i) => at - (i === 0 ? from : (polls[i - 1] as number)));
    expect(to - from).toBeGreaterThanOrEqual(2 * 60_000); // several windows of walking
    // 10 % of 60 reads a minute: a poll about every 17 s, at worst two intervals when a cycle took
    // more than it was expected to; not a burst of polls and then most of a window without one.
    expect(Math.max(...gaps)).toBeLessThanOrEqual(35_000);
    expect(h.faults.stats.rateLimited).toBe(0);
  });

  it("a quota that runs short mid-backfill (staff lookups on the same key) pauses it, never a 429", async () => {
    const h = await setup({ seed: 24, readLimit: 20 });
    await stepUntil(h, async () => (await backfillRows(h.db)).some((r) => r.done));
    // Someone else spends most of the window on the same key.
    for (let i = 0; i < 8; i++) await h.client.tickets({ limit: 1 }).catch(() => undefined);
    const before = h.faults.requests.length;
    await stepUntil(h, async () => (await pending(h.db)).length === 0);
    expect(h.faults.requests.length).toBeGreaterThan(before);
    await h.worker.runOnce();
    await expectMirrorEqualsUpstream(h);
    expect(h.faults.stats.rateLimited).toBe(0);
    // The worker kept the reserve of every window (40 % of 20): at most 12 of its own per window.
    expect(Math.max(...h.faults.windows())).toBeLessThanOrEqual(20);
  });

  it("resumes after a restart mid-backfill: nothing fetched twice, nothing missed", async () => {
    const h = await setup({ seed: 25 });
    await stepUntil(h, async () => (await backfillRows(h.db)).filter((r) => r.done).length >= 4);
    const walked = (await backfillRows(h.db)).find((r) => !r.done && r.cursor);
    await h.worker.stop();
    // A new process: same store, same upstream, a new worker.
    const restarted = new SyncWorker({
      db: h.db,
      client: h.client,
      intervalMs: 30_000,
      log: { info() {}, warn() {}, error() {} },
      now: h.clock.now,
      sleep: h.clock.sleep,
      overlapMs: 5 * 60_000,
      pageSize: HARNESS_PAGE_SIZE,
    });
    await restarted.runOnce();
    await expectMirrorEqualsUpstream(h);
    // Each walk resumed from its cursor: no page of the walks before the restart was fetched again.
    for (const path of ["/transactions", "/topups", "/checkins"]) {
      const days = h.faults.requests.filter((r) => r.path === path && r.query.get("day_id"));
      const pages = days.map((r) => `${r.query.get("day_id")} ${r.query.get("starting_after")}`);
      expect(new Set(pages).size, path).toBe(pages.length);
    }
    if (walked)
      expect(h.faults.requests.some((r) => r.query.get("starting_after") === walked.cursor)).toBe(true);
  });

  it("re-walks the days that differ from their summary today first, each once", async () => {
    const h = await setup({ seed: 27 });
    const [d1, , d3] = up.days;
    await h.worker.runOnce();
    // An upstream whose summary of days 1 and 3 counts one sale more than its lists hold.
    h.faults.rewrite(
      (path, query) =>
        path === "/reports/sales-summary" && [d1!.id, d3!.id].includes(query.get("day_id") ?? ""),
      (body) => ({
        ...body,
        sales: { ...(body.sales as object), count: (body.sales as { count: number }).count + 1 },
      }),
    );
    h.clock.advance(30_000);
    const report = await h.worker.runOnce();
    expect(report.rewalkedDays).toEqual([d3!.id, d1!.id]);
  });

  it("a cycle the window has no room for waits for the next window; the tail polls go on", async () => {
    const h = await setup({ seed: 28, readLimit: 40 });
    await h.worker.runOnce();
    h.clock.advance(61_000); // a fresh window
    await h.worker.step(); // a cycle
    // Staff lookups spend the window down to just above the reserve (16 of 40).
    while ((h.client.rateLimit("read")?.remaining ?? 0) > 18) await h.client.tickets({ limit: 1 });
    h.clock.advance(30_000); // the next cycle is due, and a sale arrives
    const logged = h.logs.length;
    const sale = await up.addSale();
    const kinds: string[] = [];
    for (let i = 0; i < 3 && !(await ids(h.db, "m_sales")).includes(sale); i++)
      kinds.push(await h.worker.step());
    expect((await ids(h.db, "m_sales")).includes(sale)).toBe(true);
    expect(kinds).not.toContain("cycle");
    expect(h.logs.slice(logged).filter((l) => l.includes("pausing"))).toEqual([]);
    expect(h.faults.stats.rateLimited).toBe(0);
  });

  it("cycles closer than the quota allows leave the tail polls their share of every window", async () => {
    // Cycles every 10 s (about nine requests each) plus a sales poll every 3 s ask for more than
    // the 72 of 120 reads a window the worker may spend: the cycles must give way, not the tail.
    const h = await setup({ seed: 29, intervalMs: 10_000 });
    await h.worker.runOnce();
    h.clock.advance(61_000);
    const from = h.clock.ms;
    const logged = h.logs.length;
    let nextSaleAt = from;
    while (h.clock.ms - from < 4 * 60_000) {
      for (; nextSaleAt <= h.clock.ms; nextSaleAt += 1000) await up.addSale();
      await h.worker.step();
    }
    const polls = h.faults.requests
      .filter((r) => r.path === "/transactions" && !r.query.has("day_id") && r.at >= from)
      .map((r) => r.at);
    const gaps = polls.slice(1).map((at, i) => at - (polls[i] as number));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(6_000);
    expect(h.faults.stats.rateLimited).toBe(0);
    expect(h.logs.slice(logged).filter((l) => l.includes("pausing"))).toEqual([]);
  });

  it("a mirror made before the plan existed keeps its tails and plans nothing", async () => {
    const h = await setup({ seed: 26 });
    await h.db.query("insert into sync_state (resource, cursor) values ('sales', '0')");
    await h.worker.runOnce();
    expect(await backfillRows(h.db)).toEqual([]);
    expect(dayOrder(h, "/transactions")).toEqual([]);
  });
});
