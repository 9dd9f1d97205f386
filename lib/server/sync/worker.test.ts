import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { UpstreamClient } from "@/lib/server/upstream/client";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { createFakeUpstream } from "@/lib/testing/fake-upstream";
import {
  expectMirrorEqualsUpstream,
  type HarnessOptions,
  ids,
  KEY,
  sorted,
  syncHarness,
} from "@/lib/testing/sync-harness";
import { summaryTotals } from "./checksum";
import type { CycleReport } from "./cycle-report";
import { syncStatus } from "./status";
import { SyncWorker } from "./worker";

const INTERVAL = 30_000;

// One store for the file (PGlite takes seconds to start); each test starts from an empty mirror.
// DATABASE_URL (the CI's PostgreSQL pass) runs the same tests in a throwaway PostgreSQL schema.
let store: Db;
beforeAll(async () => {
  store = await openTestDashboardStore();
});
afterAll(async () => {
  await store?.close();
});
const setup = (options: HarnessOptions = {}) => syncHarness(store, { intervalMs: INTERVAL, ...options });

async function cursorOf(db: Db, resource: string) {
  const [row] = await db.query<{ cursor: string }>("select cursor from sync_state where resource = $1", [
    resource,
  ]);
  return row.cursor;
}

describe("SyncWorker against the fake upstream", () => {
  it.each((process.env.SYNC_SEEDS ?? "7,8").split(",").map(Number))(
    "converges exactly through short pages, 429s, 500s, drops, late records, refused cursors, within the quota (seed %i)",
    async (seed) => {
      const { clock, up, worker, db, logs } = await setup({ readLimit: 30, chaos: true, seed });
      const reports: CycleReport[] = [];
      reports.push(await worker.runOnce());

      for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 25; i++) up.addSale();
        for (let i = 0; i < 8; i++) up.addTopup();
        for (let i = 0; i < 12; i++) up.addScan();
        up.addTicket();
        up.touchTicket();
        up.touchTicket();
        // Offline terminals: an old occurred_at and an id below what the worker already walked.
        // (Completed ones: the summary counts only those, so only those can be found by the checksum.)
        const salesCursor = await cursorOf(db, "sales");
        const topupsCursor = await cursorOf(db, "topups");
        if (salesCursor) {
          up.addSale({ occurredAt: up.dayAt(0), belowId: salesCursor, status: "completed" });
          up.addSale({ occurredAt: up.dayAt(1), belowId: salesCursor, status: "completed" });
        }
        if (topupsCursor)
          up.addTopup({ occurredAt: up.dayAt(0), belowId: topupsCursor, status: "completed" });
        // A sale listed as pending completes later: same id, new status.
        const pending = up.visible.sales().find((s) => s.status === "pending");
        if (pending) up.completeSale(pending.id);
        // The review queue moves.
        const inReview = [...up.wristbands.values()].find((w) => w.status === "pending_review");
        if (inReview) up.setWristbandStatus(inReview.id, "active");
        const active = [...up.wristbands.values()].find((w) => w.status === "active");
        if (active && round % 2 === 0) up.setWristbandStatus(active.id, "pending_review");
        // A cursor the upstream refuses once: the worker falls back to `since` with overlap.
        if (round === 1) up.inject("cursor400", (path) => path === "/topups");
        if (round === 2) up.inject("cursor400", (path) => path === "/transactions");

        clock.advance(INTERVAL);
        reports.push(await worker.runOnce());
      }

      // The faults stop; a couple of quiet cycles must leave the mirror exactly equal.
      Object.assign(up.chaos, { p500: 0, p429: 0, pNetwork: 0 });
      for (let i = 0; i < 2; i++) {
        clock.advance(INTERVAL);
        reports.push(await worker.runOnce());
      }
      await expectMirrorEqualsUpstream(db, up);

      const last = reports[reports.length - 1];
      expect(last.matchedDays.sort()).toEqual(sorted(up.days));
      expect(Object.values(last.resources).every((r) => r.ok)).toBe(true);
      // Only the checksum can find records below the cursor: days were re-walked.
      expect(reports.flatMap((r) => r.rewalkedDays).length).toBeGreaterThan(0);
      expect(logs.some((l) => l.includes("refused") && l.includes("falling back to since"))).toBe(true);
      // The faults really happened.
      expect(up.stats.faults).toBeGreaterThan(5);

      // Quota: the worker never spent the last 40 % of any read window, so never met a real 429.
      const windows = up.windows();
      const allowance = Math.floor(up.readLimit * 0.6);
      expect(windows.length).toBeGreaterThan(3); // it had to wait for resets
      for (const w of windows) expect(w.counted).toBeLessThanOrEqual(allowance);
      expect(Math.max(...windows.map((w) => w.counted))).toBe(allowance); // and used what it could
      expect(up.stats.rateLimited).toBe(0);
      expect(logs.some((l) => l.includes("read quota at its reserve"))).toBe(true);

      const status = await syncStatus(db, { now: clock.now() });
      expect(status.healthy).toBe(true);
      expect(status.days.every((d) => d.matched)).toBe(true);
      expect(status.quota).toMatchObject({ limit: 30 });
      expect(status.worker).toMatchObject({ cycles: reports.length, stale: false, intervalMs: INTERVAL });
      const sales = status.resources.find((r) => r.resource === "sales")!;
      expect(sales.recordsSynced).toBeGreaterThanOrEqual(up.visible.sales().length);
      expect(sales.requestsUsed).toBeGreaterThan(0);
      expect(status.errors.length).toBeGreaterThan(0);
      expect(status.resources.reduce((s, r) => s + r.requestsUsed, 0)).toBe(
        reports.reduce((s, r) => s + r.requests, 0),
      );
      if (process.env.SYNC_DEBUG)
        console.log(
          JSON.stringify({
            seed,
            windows: windows.map((w) => w.counted),
            faults: up.stats.faults,
            requests: up.stats.requests,
            rewalked: reports.map((r) => r.rewalkedDays.length),
            perCycle: reports.map((r) => r.requests),
            failed: reports.map((r) =>
              Object.entries(r.resources)
                .filter(([, x]) => !x.ok)
                .map(([k, x]) => `${k}:${x.error?.code}`),
            ),
          }),
        );
    },
  );

  it("finds a late sale below the cursor only through the per-day checksum, and drops what upstream no longer lists", async () => {
    const { clock, up, worker, db } = await setup({ seed: 11 });
    const first = await worker.runOnce();
    expect(first.rewalkedDays).toEqual([]);
    expect(first.matchedDays.sort()).toEqual(sorted(up.days));
    await expectMirrorEqualsUpstream(db, up);

    const cursor = await cursorOf(db, "sales");
    const late = up.addSale({ occurredAt: up.dayAt(0), belowId: cursor, status: "completed" });
    late.hidden = false;
    expect(late.id < cursor).toBe(true);
    // A mirrored sale that the key can no longer see (out of its scope now).
    const gone = up.visible.sales().find((s) => s.day_id === up.days[1].id && s.status === "completed")!;
    gone.hidden = true;

    clock.advance(INTERVAL);
    const second = await worker.runOnce();
    expect(second.resources.sales).toMatchObject({ ok: true, records: 0 }); // the tail saw nothing new
    expect(second.rewalkedDays.sort()).toEqual([up.days[0].id, up.days[1].id].sort());
    const [row] = await db.query<{ day_id: string; occurred_at: string }>(
      "select day_id, occurred_at from m_sales where id = $1",
      [late.id],
    );
    expect(row.day_id).toBe(up.days[0].id);
    expect(await db.query("select 1 from m_sales where id = $1", [gone.id])).toEqual([]);
    await expectMirrorEqualsUpstream(db, up);

    const status = await syncStatus(db, { now: clock.now() });
    const day0 = status.days.find((d) => d.dayId === up.days[0].id)!;
    expect(day0).toMatchObject({ matched: true, rewalks: 1, name: "Day 1" });
    expect(day0.mirror).toEqual(summaryTotals(up.summary(up.days[0].id)));

    // Converged: the next cycle re-walks nothing.
    clock.advance(INTERVAL);
    expect((await worker.runOnce()).rewalkedDays).toEqual([]);
  });

  it("re-walks a day on a 're-sync this night' request, once, and marks the request handled", async () => {
    const { clock, up, worker, db } = await setup({ seed: 12 });
    expect((await worker.runOnce()).rewalkedDays).toEqual([]);
    const day = up.days[0].id;
    await db.query("insert into sync_requests (day_id, requested_by) values ($1, 'supervisor')", [day]);
    clock.advance(INTERVAL);
    const report = await worker.runOnce();
    expect(report.rewalkedDays).toEqual([day]);
    const [request] = await db.query<{ handled_at: unknown }>("select handled_at from sync_requests");
    expect(request.handled_at).not.toBeNull();
    const status = await syncStatus(db, { now: clock.now() });
    expect(status.days.find((d) => d.dayId === day)).toMatchObject({ matched: true, rewalks: 1 });
    await expectMirrorEqualsUpstream(db, up);
    clock.advance(INTERVAL);
    expect((await worker.runOnce()).rewalkedDays).toEqual([]);
  });

  it("falls back to since with an overlap when a cursor is refused, deduplicating by id", async () => {
    const { clock, up, worker, db } = await setup({ seed: 5 });
    await worker.runOnce();
    for (let i = 0; i < 10; i++) up.addScan();
    up.inject("cursor400", (path) => path === "/checkins");
    clock.advance(INTERVAL);
    const report = await worker.runOnce();
    expect(report.resources.scans?.ok).toBe(true);
    expect(await ids(db, "m_scans")).toEqual(sorted(up.visible.scans()));
    const status = await syncStatus(db, { now: clock.now() });
    const scans = status.resources.find((r) => r.resource === "scans")!;
    expect(scans.lastError).toMatchObject({ code: "invalid_parameter" });
    expect(scans.lastError?.requestId).toMatch(/^req_/);
    expect(scans.failing).toBe(false);
    expect(status.errors[0]).toMatchObject({ resource: "scans", status: 400, code: "invalid_parameter" });
    // The cursor restarted from what the since walk saw, and the tail works again.
    up.addScan();
    clock.advance(INTERVAL);
    expect((await worker.runOnce()).resources.scans).toMatchObject({ ok: true });
    expect(await ids(db, "m_scans")).toEqual(sorted(up.visible.scans()));
  });

  it("records a resource that keeps failing with its code and request_id, and recovers next cycle", async () => {
    const { clock, up, worker, db } = await setup({ seed: 9 });
    up.inject("500", (path) => path === "/checkins", 10);
    const report = await worker.runOnce();
    expect(report.resources.scans).toMatchObject({
      ok: false,
      requests: 4,
      error: { status: 500, code: "internal_error" },
    });
    expect(report.resources.sales?.ok).toBe(true);
    let status = await syncStatus(db, { now: clock.now() });
    const scans = status.resources.find((r) => r.resource === "scans")!;
    expect(scans).toMatchObject({ failing: true, lastSuccessAt: null });
    expect(scans.lastError).toMatchObject({ code: "internal_error" });
    expect(scans.lastError?.requestId).toMatch(/^req_f/);
    expect(status.healthy).toBe(false);

    clock.advance(INTERVAL);
    // 6 injected failures are left: the first attempts fail, a retry gets through or the next cycle does.
    for (let i = 0; i < 3 && !(await worker.runOnce()).resources.scans?.ok; i++) clock.advance(INTERVAL);
    status = await syncStatus(db, { now: clock.now() });
    expect(status.resources.find((r) => r.resource === "scans")).toMatchObject({ failing: false });
    expect(await ids(db, "m_scans")).toEqual(sorted(up.visible.scans()));
  });

  it("does not re-walk a day every cycle when the upstream's summary and lists disagree", async () => {
    const { clock, up, worker, db, logs } = await setup({ seed: 13 });
    await worker.runOnce();
    const day = up.days[1].id;
    up.summaryBias.set(day, 1);
    clock.advance(INTERVAL);
    expect((await worker.runOnce()).rewalkedDays).toEqual([day]);
    expect(logs.some((l) => l.includes("still differs after a re-walk"))).toBe(true);
    for (let i = 0; i < 3; i++) {
      clock.advance(INTERVAL);
      const report = await worker.runOnce();
      expect(report.rewalkedDays).toEqual([]);
      expect(report.matchedDays).not.toContain(day);
    }
    const status = await syncStatus(db, { now: clock.now() });
    expect(status.days.find((d) => d.dayId === day)).toMatchObject({ matched: false, rewalks: 1 });
    expect(status.healthy).toBe(false);
    clock.advance(10 * 60_000);
    expect((await worker.runOnce()).rewalkedDays).toEqual([day]);
    up.summaryBias.delete(day);
    clock.advance(INTERVAL);
    expect((await worker.runOnce()).matchedDays).toContain(day);
  });

  it("refreshes the catalog only every catalogRefreshMs, and joins a running cycle", async () => {
    const { clock, up, worker } = await setup({ seed: 3 });
    const [a, b] = await Promise.all([worker.runOnce(), worker.runOnce()]);
    expect(a).toBe(b);
    expect(a.resources.event?.ok).toBe(true);
    clock.advance(INTERVAL);
    const next = await worker.runOnce();
    expect(next.resources.event).toBeUndefined();
    expect(up.stats.byPath.get("/event")).toBe(1);
    clock.advance(5 * 60_000);
    expect((await worker.runOnce()).resources.event?.ok).toBe(true);
  });

  it("start() cycles until stop(), which interrupts and returns", async () => {
    // Real timers here: a loop on the fake clock would never yield to the test's own timers.
    const { clock, up, worker, db } = await setup({
      seed: 4,
      readLimit: 100_000,
      realSleep: true,
      intervalMs: 5,
    });
    worker.start();
    expect(worker.isRunning).toBe(true);
    for (let i = 0; i < 200; i++) {
      const [w] = await db.query<{ cycles: number }>("select cycles from sync_worker");
      if (w && Number(w.cycles) >= 2) break;
      await new Promise((r) => setTimeout(r, 20));
      clock.advance(20); // the worker's clock is the fake one: move it with the real time
    }
    await worker.stop();
    expect(worker.isRunning).toBe(false);
    const requests = up.stats.requests;
    await new Promise((r) => setTimeout(r, 50));
    expect(up.stats.requests).toBe(requests);
    const [w] = await db.query<{ cycles: number }>("select cycles from sync_worker");
    expect(Number(w.cycles)).toBeGreaterThanOrEqual(2);
  });

  it("drops the mirror when the key starts serving another event", async () => {
    const first = await setup({ seed: 21 });
    await first.worker.runOnce();
    expect((await ids(first.db, "m_sales")).length).toBeGreaterThan(0);
    // Same store, another upstream event behind the key.
    const other = createFakeUpstream({ apiKey: KEY, clock: first.clock, seed: 99, initial: { sales: 5 } });
    const worker = new SyncWorker({
      db: first.db,
      client: new UpstreamClient({ baseUrl: "http://fake.test/v1", apiKey: KEY, fetch: other.fetch }),
      intervalMs: INTERVAL,
      log: { info() {}, warn() {}, error() {} },
      now: first.clock.now,
      sleep: first.clock.sleep,
    });
    await worker.runOnce();
    await expectMirrorEqualsUpstream(first.db, other);
  });
});
