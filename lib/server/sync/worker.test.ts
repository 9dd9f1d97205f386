import { describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/db/db";
import { UpstreamClient } from "@/lib/server/upstream/client";
import { READ_SCOPES } from "@/lib/testing/real-api-sync";
import {
  expectMirrorEqualsUpstream,
  type HarnessOptions,
  ids,
  type SyncUpstream,
  storeAndUpstreamPerFile,
  syncHarness,
  syncUpstream,
  upstreamView,
} from "@/lib/testing/sync-harness";
import { withUnknownFields } from "@/lib/testing/upstream-faults";
import { pushBus } from "../push";
import { backfillRows } from "../store/backfill";
import { summaryTotals } from "./checksum";
import type { CycleReport } from "./cycle-report";
import { syncStatus } from "./status";
import { SyncWorker } from "./worker";

const INTERVAL = 30_000;

// One store and one upstream for the file (each takes seconds to start); each test starts from an
// empty mirror and a key of its own. DATABASE_URL / API_DATABASE_URL (the CI's PostgreSQL pass)
// run the same tests in throwaway PostgreSQL schemas.
let store: Db;
let up: SyncUpstream;
storeAndUpstreamPerFile((opened) => ({ store, up } = opened));
const setup = (options: HarnessOptions = {}) => syncHarness(store, up, { intervalMs: INTERVAL, ...options });
const sortedIds = (items: { id: string }[]) => items.map((x) => x.id).sort();

async function cursorOf(db: Db, resource: string) {
  const [row] = await db.query<{ cursor: string }>("select cursor from sync_state where resource = $1", [
    resource,
  ]);
  return row?.cursor ?? null;
}

/** A sale the key sees, in `status`, of day `dayId` (the mirror's copy, so a listed one). */
async function mirroredSale(db: Db, status: string, dayId?: string) {
  const [row] = await db.query<{ id: string }>(
    `select id from m_sales where status = $1 and ($2::text is null or day_id = $2) order by id limit 1`,
    [status, dayId ?? null],
  );
  return row?.id ?? null;
}

describe("SyncWorker against the real Integration API, through fault hooks", () => {
  it.each((process.env.SYNC_SEEDS ?? "7,8").split(",").map(Number))(
    "converges exactly through short pages, 429s, 500s, drops, late records, refused cursors, within the quota (seed %i)",
    async (seed) => {
      const h = await setup({ readLimit: 30, chaos: true, restricted: true, seed });
      const { worker, db, logs, faults } = h;
      // Every answer carries fields the contract does not know (an upstream a version ahead).
      faults.rewrite(() => true, withUnknownFields);
      const reports: CycleReport[] = [];
      reports.push(await worker.runOnce());

      for (let round = 0; round < 5; round++) {
        // The terminals work on: sales, top-ups, refunds, check-ins, scans (some offline, late).
        await up.activity(40);
        // Offline terminals: an old occurred_at and an id below what the worker already walked.
        // (Completed ones: the summary counts only those, so only those can be found by the checksum.)
        const salesCursor = await cursorOf(db, "sales");
        if (salesCursor) {
          await up.lateSaleBelow(salesCursor, up.dayAt(0));
          await up.lateSaleBelow(salesCursor, up.dayAt(1));
        }
        // A sale listed as pending completes later: same id, new status.
        const pending = await mirroredSale(db, "pending");
        if (pending) await up.completeSale(pending);
        // The review queue moves.
        const [inReview] = await db.query<{ id: string }>(
          "select id from m_review_wristbands order by id limit 1",
        );
        if (inReview) await up.setWristbandStatus(inReview.id, "active");
        const [active] = await up.api.db.query<{ id: string }>(
          "select id from wristbands where status = 'active' order by id offset $1 limit 1",
          [round * 7],
        );
        if (active && round % 2 === 0) await up.setWristbandStatus(active.id, "pending_review");
        // A cursor the upstream refuses once: the worker falls back to `since` with overlap.
        if (round === 1) faults.arm("cursor400", (path) => path === "/topups");
        if (round === 2) faults.arm("cursor400", (path) => path === "/transactions");

        h.clock.advance(INTERVAL);
        reports.push(await worker.runOnce());
      }

      // The faults stop; a couple of quiet cycles must leave the mirror exactly equal.
      Object.assign(faults.chaos, { p500: 0, p429: 0, pNetwork: 0, pShort: 0 });
      for (let i = 0; i < 2; i++) {
        h.clock.advance(INTERVAL);
        reports.push(await worker.runOnce());
      }
      await expectMirrorEqualsUpstream(h);
      // The key sees part of the event: records of one ticket type are out of its view.
      const [all] = await up.api.db.query<{ n: number }>("select count(*)::int as n from sales");
      expect((await h.view.ids("/v1/transactions")).length).toBeLessThan(all!.n);

      const last = reports[reports.length - 1]!;
      expect(last.matchedDays.sort()).toEqual(sortedIds(up.days));
      expect(Object.values(last.resources).every((r) => r.ok)).toBe(true);
      // Only the checksum can find records below the cursor: days were re-walked.
      expect(reports.flatMap((r) => r.rewalkedDays).length).toBeGreaterThan(0);
      expect(logs.some((l) => l.includes("refused") && l.includes("falling back to since"))).toBe(true);
      // The faults really happened.
      expect(faults.stats.faults).toBeGreaterThan(5);

      // Quota: the worker never spent the last 40 % of any read window, so never met a real 429.
      const windows = faults.windows();
      const allowance = Math.floor(30 * 0.6);
      expect(windows.length).toBeGreaterThan(3); // it had to wait for resets
      for (const w of windows) expect(w).toBeLessThanOrEqual(allowance);
      expect(Math.max(...windows)).toBe(allowance); // and used what it could
      expect(faults.stats.rateLimited).toBe(0);
      expect(logs.some((l) => l.includes("read quota at its reserve"))).toBe(true);

      const status = await syncStatus(db, { now: h.clock.now() });
      expect(status.healthy).toBe(true);
      expect(status.days.every((d) => d.matched)).toBe(true);
      expect(status.quota).toMatchObject({ limit: 30 });
      expect(status.worker).toMatchObject({ cycles: reports.length, stale: false, intervalMs: INTERVAL });
      const sales = status.resources.find((r) => r.resource === "sales")!;
      expect(sales.recordsSynced).toBeGreaterThanOrEqual((await h.view.ids("/v1/transactions")).length);
      expect(sales.requestsUsed).toBeGreaterThan(0);
      expect(status.errors.length).toBeGreaterThan(0);
      expect(status.resources.reduce((s, r) => s + r.requestsUsed, 0)).toBe(
        reports.reduce((s, r) => s + r.requests, 0),
      );
      if (process.env.SYNC_DEBUG)
        console.log(
          JSON.stringify({
            seed,
            windows,
            faults: faults.stats.faults,
            requests: faults.stats.requests,
            rewalked: reports.map((r) => r.rewalkedDays.length),
            perCycle: reports.map((r) => r.requests),
          }),
        );
    },
  );

  it("finds a late sale below the cursor only through the per-day checksum, and drops what upstream no longer lists", async () => {
    const h = await setup({ seed: 11 });
    const { worker, db } = h;
    const first = await worker.runOnce();
    expect(first.rewalkedDays).toEqual([]);
    expect(first.matchedDays.sort()).toEqual(sortedIds(up.days));
    await expectMirrorEqualsUpstream(h);

    const cursor = (await cursorOf(db, "sales"))!;
    const late = await up.lateSaleBelow(cursor, up.dayAt(0));
    expect(late < cursor).toBe(true);
    // A mirrored sale that the upstream no longer lists.
    const gone = (await mirroredSale(db, "completed", up.days[1]!.id))!;
    await up.removeSale(gone);

    h.clock.advance(INTERVAL);
    const second = await worker.runOnce();
    expect(second.resources.sales).toMatchObject({ ok: true, records: 0 }); // the tail saw nothing new
    expect(second.rewalkedDays.sort()).toEqual([up.days[0]!.id, up.days[1]!.id].sort());
    const [row] = await db.query<{ day_id: string }>("select day_id from m_sales where id = $1", [late]);
    expect(row!.day_id).toBe(up.days[0]!.id);
    expect(await db.query("select 1 from m_sales where id = $1", [gone])).toEqual([]);
    await expectMirrorEqualsUpstream(h);

    const status = await syncStatus(db, { now: h.clock.now() });
    const day0 = status.days.find((d) => d.dayId === up.days[0]!.id)!;
    expect(day0).toMatchObject({ matched: true, rewalks: 1, name: up.days[0]!.name });
    expect(day0.mirror).toEqual(summaryTotals(await h.view.summary(up.days[0]!.id)));

    // Converged: the next cycle re-walks nothing.
    h.clock.advance(INTERVAL);
    expect((await worker.runOnce()).rewalkedDays).toEqual([]);
  });

  it("re-walks a day on a 're-sync this night' request, once, and marks the request handled", async () => {
    const h = await setup({ seed: 12 });
    const { worker, db } = h;
    expect((await worker.runOnce()).rewalkedDays).toEqual([]);
    const day = up.days[0]!.id;
    await db.query("insert into sync_requests (day_id, requested_by) values ($1, 'supervisor')", [day]);
    h.clock.advance(INTERVAL);
    const report = await worker.runOnce();
    expect(report.rewalkedDays).toEqual([day]);
    const [request] = await db.query<{ handled_at: unknown }>("select handled_at from sync_requests");
    expect(request!.handled_at).not.toBeNull();
    const status = await syncStatus(db, { now: h.clock.now() });
    expect(status.days.find((d) => d.dayId === day)).toMatchObject({ matched: true, rewalks: 1 });
    await expectMirrorEqualsUpstream(h);
    h.clock.advance(INTERVAL);
    expect((await worker.runOnce()).rewalkedDays).toEqual([]);
  });

  it("falls back to since with an overlap when a cursor is refused, deduplicating by id", async () => {
    const h = await setup({ seed: 5 });
    const { worker, db, faults } = h;
    await worker.runOnce();
    await up.activity(30);
    faults.arm("cursor400", (path) => path === "/checkins");
    h.clock.advance(INTERVAL);
    const report = await worker.runOnce();
    expect(report.resources.scans?.ok).toBe(true);
    expect(await ids(db, "m_scans")).toEqual(await h.view.ids("/v1/checkins"));
    const status = await syncStatus(db, { now: h.clock.now() });
    const scans = status.resources.find((r) => r.resource === "scans")!;
    expect(scans.lastError).toMatchObject({ code: "invalid_parameter" });
    expect(scans.lastError?.requestId).toMatch(/^req_/);
    expect(scans.failing).toBe(false);
    expect(status.errors[0]).toMatchObject({ resource: "scans", status: 400, code: "invalid_parameter" });
    // The cursor restarted from what the since walk saw, and the tail works again.
    await up.activity(10);
    h.clock.advance(INTERVAL);
    expect((await worker.runOnce()).resources.scans).toMatchObject({ ok: true });
    expect(await ids(db, "m_scans")).toEqual(await h.view.ids("/v1/checkins"));
  });

  it("records a resource that keeps failing with its code and request_id, and recovers next cycle", async () => {
    const h = await setup({ seed: 9 });
    const { worker, db, faults } = h;
    faults.arm("500", (path) => path === "/checkins", 10);
    const report = await worker.runOnce();
    expect(report.resources.scans).toMatchObject({
      ok: false,
      requests: 4,
      error: { status: 500, code: "internal_error" },
    });
    expect(report.resources.sales?.ok).toBe(true);
    let status = await syncStatus(db, { now: h.clock.now() });
    const scans = status.resources.find((r) => r.resource === "scans")!;
    expect(scans).toMatchObject({ failing: true, lastSuccessAt: null });
    expect(scans.lastError).toMatchObject({ code: "internal_error" });
    expect(scans.lastError?.requestId).toMatch(/^req_f/);
    expect(status.healthy).toBe(false);

    h.clock.advance(INTERVAL);
    // 6 injected failures are left: the first attempts fail, a retry gets through or the next cycle does.
    for (let i = 0; i < 3 && !(await worker.runOnce()).resources.scans?.ok; i++) h.clock.advance(INTERVAL);
    status = await syncStatus(db, { now: h.clock.now() });
    expect(status.resources.find((r) => r.resource === "scans")).toMatchObject({ failing: false });
    expect(await ids(db, "m_scans")).toEqual(await h.view.ids("/v1/checkins"));
  });

  it("gives up on an answer that never comes at the client's timeout, and gets it next cycle", async () => {
    const h = await setup({ seed: 14 });
    const { db, faults } = h;
    // A client with a 5 s timeout per attempt, whose timers the test holds: the hook holds one
    // answer (the first /zones) back for good, and the test fires that attempt's timer while it
    // hangs, as 5 s passing would. No real second is waited.
    const timers: { ms: number; fire: () => void }[] = [];
    let fired = 0;
    const patient = new UpstreamClient({
      baseUrl: "http://integration-api.test/v1",
      apiKey: h.key,
      fetch: (url, init) => {
        const timer = timers.at(-1)!; // this attempt's: armed right before it is sent
        const answer = faults.fetch(url, init);
        if (new URL(url).pathname === "/v1/zones" && fired === 0) {
          fired++;
          timer.fire();
        }
        return answer;
      },
      now: h.clock.now,
      sleep: h.clock.sleep,
      timeoutMs: 5_000,
      timeout: (ms) => {
        const controller = new AbortController();
        const reason = new DOMException("The operation was aborted due to timeout", "TimeoutError");
        timers.push({ ms, fire: () => controller.abort(reason) });
        return controller.signal;
      },
      maxAttempts: 1,
    });
    const worker = new SyncWorker({
      db,
      client: patient,
      intervalMs: INTERVAL,
      log: { info() {}, warn() {}, error() {} },
      now: h.clock.now,
      sleep: h.clock.sleep,
      pageSize: 20,
    });
    faults.arm("hang", (path) => path === "/zones");
    const report = await worker.runOnce();
    expect(fired).toBe(1);
    expect(report.resources.zones).toMatchObject({
      ok: false,
      error: { code: "timeout", message: expect.stringContaining("within 5000 ms") },
    });
    expect(report.resources.sales?.ok).toBe(true);
    // Every attempt, the hanging one included, was timed by the client's timer, with its 5 s.
    expect(timers.length).toBe(faults.stats.requests);
    expect(new Set(timers.map((t) => t.ms))).toEqual(new Set([5_000]));
    h.clock.advance(6 * 60_000); // the catalog is due again
    expect((await worker.runOnce()).resources.zones).toMatchObject({ ok: true });
  });

  it("does not re-walk a day every cycle when the upstream's summary and lists disagree", async () => {
    const h = await setup({ seed: 13 });
    const { worker, db, logs, faults } = h;
    await worker.runOnce();
    const day = up.days[1]!.id;
    // An upstream bug: the summary counts one sale more than the lists hold.
    const bias = faults.rewrite(
      (path, query) => path === "/reports/sales-summary" && query.get("day_id") === day,
      (body) => {
        const sales = body.sales as { count: number };
        return { ...body, sales: { ...sales, count: sales.count + 1 } };
      },
    );
    h.clock.advance(INTERVAL);
    expect((await worker.runOnce()).rewalkedDays).toEqual([day]);
    expect(logs.some((l) => l.includes("still differs after a re-walk"))).toBe(true);
    for (let i = 0; i < 3; i++) {
      h.clock.advance(INTERVAL);
      const report = await worker.runOnce();
      expect(report.rewalkedDays).toEqual([]);
      expect(report.matchedDays).not.toContain(day);
    }
    const status = await syncStatus(db, { now: h.clock.now() });
    expect(status.days.find((d) => d.dayId === day)).toMatchObject({ matched: false, rewalks: 1 });
    expect(status.healthy).toBe(false);
    h.clock.advance(10 * 60_000);
    expect((await worker.runOnce()).rewalkedDays).toEqual([day]);
    bias.disarm();
    h.clock.advance(INTERVAL);
    expect((await worker.runOnce()).matchedDays).toContain(day);
  });

  it("mirrors records that arrive while it pages through a day", async () => {
    const h = await setup({ seed: 15 });
    const { worker, faults } = h;
    // Between the reads of the first mirror's pages of today's sales, the terminals sell on.
    faults.before(
      (path, query) => path === "/transactions" && query.has("day_id") && query.has("starting_after"),
      () => up.activity(15),
      3,
    );
    const before = (await h.view.ids("/v1/transactions")).length;
    await worker.runOnce();
    expect((await h.view.ids("/v1/transactions")).length).toBeGreaterThan(before);
    h.clock.advance(INTERVAL);
    await worker.runOnce();
    await expectMirrorEqualsUpstream(h);
  });

  it("keeps the sales tail's 3 s rhythm while older days are walked (the walk takes what is left), never touching the lookups' reserve", async () => {
    const h = await setup({ seed: 31 });
    const [, d2, d3] = up.days;
    const walked = async (dayId: string) => {
      const rows = await backfillRows(h.db);
      return (
        rows.some((r) => r.dayId === dayId) && rows.filter((r) => r.dayId === dayId).every((r) => r.done)
      );
    };
    for (let i = 0; i < 5000 && !(await walked(d3!.id)); i++) await h.worker.step();
    expect(await walked(d2!.id)).toBe(false); // older days are still to walk
    const from = h.clock.ms;
    const logged = h.logs.length;
    const kinds: string[] = [];
    let leastLeft = Number.POSITIVE_INFINITY;
    let nextSaleAt = from;
    const pushed: string[] = [];
    const unsubscribe = pushBus(h.db).subscribe((s) => s !== "reset" && pushed.push(...s.topics));
    // 4 sales a second reach the upstream (a page of 20 per poll) while the worker walks the older days.
    while ((await backfillRows(h.db)).some((r) => !r.done) && h.clock.ms - from < 15 * 60_000) {
      for (; nextSaleAt <= h.clock.ms; nextSaleAt += 250) await up.addSale();
      kinds.push(await h.worker.step());
      const quota = h.client.rateLimit("read");
      if (quota && quota.resetAt.getTime() > h.clock.ms) leastLeft = Math.min(leastLeft, quota.remaining);
    }
    unsubscribe();
    expect((await backfillRows(h.db)).filter((r) => !r.done)).toEqual([]); // the walk finished
    expect(kinds).toContain("backfill");
    const polls = h.faults.requests
      .filter((r) => r.path === "/transactions" && !r.query.has("day_id") && r.at >= from)
      .map((r) => r.at);
    expect(polls.length).toBeGreaterThan(10);
    // Every poll wrote sales and told the browsers (push; the store's bus is the file's, so another
    // test's worker may add one).
    expect(pushed.filter((t) => t === "sales").length).toBeGreaterThanOrEqual(polls.length);
    // Polls and a cycle that write nothing tell nobody of records; the cycle's end is told.
    const after: string[] = [];
    const stop = pushBus(h.db).subscribe((s) => s !== "reset" && after.push(...s.topics));
    const steps: string[] = [];
    while (!(steps.includes("cycle") && steps.includes("tail")) && steps.length < 100)
      steps.push(await h.worker.step());
    stop();
    expect(steps).toEqual(expect.arrayContaining(["tail", "cycle"]));
    expect(after.filter((t) => t === "sales" || t === "topups" || t === "scans")).toEqual([]);
    expect(after).toContain("cycle");
    const gaps = polls.slice(1).map((at, i) => at - polls[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(3000);
    // The 40 % of every window the lookups keep was never spent, and nothing waited on the quota.
    expect(leastLeft).toBeGreaterThanOrEqual(Math.ceil(120 * 0.4));
    expect(h.logs.slice(logged).filter((l) => l.includes("pausing"))).toEqual([]);
    expect(h.faults.stats.rateLimited).toBe(0);
  });

  it("refreshes the catalog only every catalogRefreshMs, and joins a running cycle", async () => {
    const h = await setup({ seed: 3 });
    const { worker, faults } = h;
    const [a, b] = await Promise.all([worker.runOnce(), worker.runOnce()]);
    expect(a).toBe(b);
    expect(a.resources.event?.ok).toBe(true);
    h.clock.advance(INTERVAL);
    const next = await worker.runOnce();
    expect(next.resources.event).toBeUndefined();
    expect(faults.stats.byPath.get("/event")).toBe(1);
    h.clock.advance(5 * 60_000);
    expect((await worker.runOnce()).resources.event?.ok).toBe(true);
  });

  it("start() cycles until stop(), which interrupts and returns", async () => {
    // Real timers here: the loop sleeps for real between its cycles (5 ms apart).
    const h = await setup({ seed: 4, readLimit: 100_000, realTime: true, intervalMs: 5 });
    const { worker, db, faults } = h;
    worker.start();
    expect(worker.isRunning).toBe(true);
    await vi.waitFor(
      async () => {
        const [w] = await db.query<{ cycles: number }>("select cycles from sync_worker");
        expect(Number(w?.cycles ?? 0)).toBeGreaterThanOrEqual(2);
      },
      { timeout: 120_000, interval: 50 },
    );
    await worker.stop();
    expect(worker.isRunning).toBe(false);
    // Stopped means stopped: nothing is sent once stop() has returned, however long one waits.
    const requests = faults.stats.requests;
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(faults.stats.requests).toBe(requests);
    const [w] = await db.query<{ cycles: number }>("select cycles from sync_worker");
    expect(Number(w!.cycles)).toBeGreaterThanOrEqual(2);
  });

  it("drops the mirror when the key starts serving another event", async () => {
    const first = await setup({ seed: 21 });
    await first.worker.runOnce();
    expect((await ids(first.db, "m_sales")).length).toBeGreaterThan(0);
    // Same store, another upstream event behind the key.
    const other = await syncUpstream({ scale: 0.005, random: 99 });
    try {
      const { key } = await other.api.createKey({ name: "other", scopes: READ_SCOPES });
      const worker = new SyncWorker({
        db: first.db,
        client: new UpstreamClient({
          baseUrl: "http://integration-api.test/v1",
          apiKey: key,
          fetch: async (url, init) => other.api.app.request(url, init),
          now: first.clock.now,
          sleep: first.clock.sleep,
        }),
        intervalMs: INTERVAL,
        log: { info() {}, warn() {}, error() {} },
        now: first.clock.now,
        sleep: first.clock.sleep,
      });
      await worker.runOnce();
      await expectMirrorEqualsUpstream({ db: first.db, view: upstreamView(other.api, key) });
    } finally {
      await other.close();
    }
  });
});
