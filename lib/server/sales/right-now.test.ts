import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as rightNowRoute from "@/app/api/live/right-now/route";
import type { Checkin, Topup, Transaction } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { RightNowReport } from "@/lib/shared/api/right-now";
import { type Harness, PASSWORDS, startHarness } from "@/lib/testing/console-harness";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { insertEventDays, saleRecord, scanRecord, topupRecord } from "@/lib/testing/mirror-records";
import { insertAlert, saveTerminalStates } from "../store/attention";
import { upsertSales, upsertScans, upsertTopups } from "../store/mirror";
import { previousInstant, rightNowReport, windowAt } from "./right-now";

/**
 * Right now against a real store with known records: the 15-minute window's edges, the previous
 * event day's same clock window across a night past midnight, the first day, paid money and promo
 * credit apart, entries by zone, terminals not live and the most severe alerts; the route refuses staff.
 */

// Europe/Madrid in July is UTC+2: each day runs 12:00 → 06:00 local.
const DAYS = [
  { id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" },
  { id: "day_2", starts_at: "2026-07-11T10:00:00.000Z", ends_at: "2026-07-12T04:00:00.000Z" },
];
/** 02:10:30 local on the night of day 2 (past midnight): the window starts at 01:56:00 local. */
const NOW = new Date("2026-07-12T00:10:30.000Z");

let db: Db;

const sale = (occurred: string, total: number, extra: Partial<Transaction> = {}) => ({
  ...saleRecord({ device: "bar-01", day: occurred < "2026-07-11T10" ? "day_1" : "day_2", occurred, total }),
  ...extra,
});
const topup = (occurred: string, amount: number, extra: Partial<Topup>) => ({
  ...topupRecord({ device: "topup-01", day: "day_2", occurred, amount }),
  ...extra,
});
const scan = (occurred: string, allowed: boolean, zone: string | null) =>
  ({
    ...scanRecord({ device: "gate-01", day: "day_2", occurred }),
    allowed,
    reason: allowed ? null : "not_valid_today",
    zone: zone ? { id: zone, name: zone === "z_main" ? "Main gate" : "Backstage" } : null,
  }) as Checkin;

beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, DAYS);
  await db.query("insert into m_zones (id, name) values ('z_main', 'Main gate'), ('z_back', 'Backstage')");
  await upsertSales(db, [
    sale("2026-07-11T23:55:59.999Z", 700), // a millisecond before the window
    sale("2026-07-11T23:56:00.000Z", 500), // the window's first instant
    sale("2026-07-12T00:10:29.000Z", 300, {
      items: [{ product_id: "prd_water", name: "Water", quantity: 2, unit_price: 150, charged_amount: 300 }],
    } as never),
    sale("2026-07-12T00:10:31.000Z", 900), // after now (a terminal's clock ahead)
    sale("2026-07-12T00:05:00.000Z", 4000, { status: "failed" } as never), // not completed
    // Day 1, the same clock window one night earlier (01:56 → 02:10:30 local on 11 July).
    sale("2026-07-11T00:00:00.000Z", 1000),
    sale("2026-07-10T23:55:00.000Z", 1100), // before it
    sale("2026-07-11T00:10:31.000Z", 2000), // after it
  ] as never);
  await upsertTopups(db, [
    topup("2026-07-12T00:01:00Z", 2000, { nature: "paid", payment_method: "cash" }),
    topup("2026-07-12T00:02:00Z", 3000, { nature: "paid", payment_method: "card" }),
    topup("2026-07-12T00:01:00Z", 500, { nature: "bonus", payment_method: "promo" }),
    topup("2026-07-12T00:03:00Z", 300, { nature: "courtesy", payment_method: "promo" }),
    topup("2026-07-12T00:04:00Z", 400, { nature: "transfer", payment_method: "transfer" }),
    topup("2026-07-12T00:04:00Z", 1000, { direction: "withdraw", nature: "paid", payment_method: "cash" }),
    topup("2026-07-11T23:00:00Z", 9000, { nature: "paid", payment_method: "cash" }), // before the window
  ] as never);
  await upsertScans(db, [
    scan("2026-07-12T00:00:00Z", true, "z_main"),
    scan("2026-07-12T00:01:00Z", true, "z_main"),
    scan("2026-07-12T00:02:00Z", false, "z_main"),
    scan("2026-07-12T00:03:00Z", true, "z_back"),
    scan("2026-07-11T23:40:00Z", true, "z_back"), // before the window
  ]);
  const state = (device_id: string, state: string, since: string) => ({
    device_id,
    state,
    since,
    last_occurred_at: null,
    last_created_at: null,
    figures: { normal_gap_s: null, quiet_after_s: null, burst: [] },
    computed_at: NOW.toISOString(),
  });
  await saveTerminalStates(db, [
    state("bar-01", "live", "2026-07-11T20:00:00Z"),
    state("bar-02", "quiet", "2026-07-11T23:30:00Z"),
    state("bar-03", "late", "2026-07-11T23:50:00Z"),
    state("food-01", "back", "2026-07-11T23:00:00Z"),
    state("merch-01", "idle", "2026-07-11T10:00:00Z"),
  ] as never);
  const alert = (kind: string, subject: string, severity: string, at: string) =>
    insertAlert(db, { kind, subject, severity, figures: {}, link: "/alerts" } as never, new Date(at));
  await alert("terminal_quiet", "bar-02", "warning", "2026-07-11T23:40:00Z");
  await alert("sync_quota", "sales", "critical", "2026-07-11T23:45:00Z");
  await alert("review_waiting", "review", "info", "2026-07-12T00:05:00Z");
  await alert("terminal_late", "bar-03", "warning", "2026-07-12T00:00:00Z");
  await alert("sync_stalled", "worker", "warning", "2026-07-11T23:00:00Z");
});
afterAll(async () => {
  await db?.close();
});

describe("right now", () => {
  it("sums completed sales of the 15 event-local minutes up to now, per minute", async () => {
    const r = RightNowReport.parse(await rightNowReport(db, "manager", NOW));
    expect(r.window).toEqual({ from: "2026-07-11T23:56:00.000Z", to: NOW.toISOString() });
    expect(r.day?.id).toBe("day_2");
    expect(r.sales.count).toBe(2);
    expect(r.sales.total).toBe(800);
    expect(r.sales.per_minute).toHaveLength(15);
    expect(r.sales.per_minute[0]).toMatchObject({ minute: "2026-07-11T23:56:00.000Z", count: 1, total: 500 });
    expect(r.sales.per_minute[14]).toMatchObject({
      minute: "2026-07-12T00:10:00.000Z",
      count: 1,
      total: 300,
    });
    expect(r.sales.per_minute.reduce((n, m) => n + m.total, 0)).toBe(800);
    expect(r.top_products).toEqual([
      { product_id: "prd_beer", name: "Beer", quantity: 1, total: 500 },
      { product_id: "prd_water", name: "Water", quantity: 2, total: 300 },
    ]);
  });

  it("follows re-sent records and status changes, and equals a recompute from the mirror", async () => {
    const tables = [
      "a_now_sales_minute",
      "a_now_products_minute",
      "a_now_topups_minute",
      "a_now_scans_minute",
    ];
    const snapshot = async () => {
      const out: Record<string, unknown[]> = {};
      for (const t of tables) out[t] = await db.query(`select * from ${t} order by 1, 2`);
      return out;
    };
    // A sale of a whole minute of the window turns failed, then completed again (a re-send).
    const [row] = await db.query<{ id: string }>(
      "select id from m_sales where occurred_at = '2026-07-11T23:56:00Z' and status = 'completed'",
    );
    await db.query("update m_sales set status = 'failed' where id = $1", [row!.id]);
    expect((await rightNowReport(db, "manager", NOW)).sales).toMatchObject({ count: 1, total: 300 });
    const byTriggers = await snapshot();
    await db.query("select now_recompute()");
    expect(await snapshot()).toEqual(byTriggers);
    await db.query("update m_sales set status = 'completed' where id = $1", [row!.id]);
    expect((await rightNowReport(db, "manager", NOW)).sales).toMatchObject({ count: 2, total: 800 });
  });

  it("compares with the previous event day's same clock window, across midnight", async () => {
    const r = await rightNowReport(db, "manager", NOW);
    expect(r.previous_day?.id).toBe("day_1");
    expect(r.previous_window).toEqual({ from: "2026-07-10T23:56:00.000Z", to: "2026-07-11T00:10:30.000Z" });
    expect(r.sales.previous).toEqual({ count: 1, total: 1000 });
    // 02:00 local of each night is the fifth minute of the window.
    expect(r.sales.per_minute[4]).toMatchObject({ minute: "2026-07-12T00:00:00.000Z", previous_total: 1000 });
    expect(r.sales.per_minute.filter((m) => m.previous_total !== 0)).toHaveLength(1);
  });

  it("makes no comparison while the previous day's records are still being mirrored", async () => {
    await db.query(
      "insert into sync_backfill (resource, day_id, position, done) values ('sales', 'day_1', 1, false)",
    );
    try {
      const r = await rightNowReport(db, "manager", NOW);
      expect(r.previous_day?.id).toBe("day_1");
      expect(r.sales.previous).toBeNull();
      expect(r.sales.per_minute.every((m) => m.previous_total === null)).toBe(true);
      expect(r.sales.total).toBe(800);
    } finally {
      await db.query("delete from sync_backfill");
    }
  });

  it("has nothing to compare with on the first day", async () => {
    const r = await rightNowReport(db, "manager", new Date("2026-07-11T00:10:30.000Z"));
    expect(r.day?.id).toBe("day_1");
    expect(r.previous_day).toBeNull();
    expect(r.previous_window).toBeNull();
    expect(r.sales.previous).toBeNull();
    expect(r.sales).toMatchObject({ count: 1, total: 1000 });
    expect(r.sales.per_minute.every((m) => m.previous_total === null)).toBe(true);
  });

  it("keeps paid top-ups and promo credit apart (transfers in neither), withdrawals beside them", async () => {
    const r = await rightNowReport(db, "manager", NOW);
    expect(r.topups).toEqual({
      paid: { count: 2, amount: 5000 },
      promo: { count: 2, amount: 800 },
      withdrawals: { count: 1, amount: 1000 },
    });
  });

  it("counts entries by zone: allowed scans, denials beside them", async () => {
    const r = await rightNowReport(db, "manager", NOW);
    expect(r.entries).toEqual({
      allowed: 3,
      denied: 1,
      by_zone: [
        { zone_id: "z_main", name: "Main gate", allowed: 2, denied: 1 },
        { zone_id: "z_back", name: "Backstage", allowed: 1, denied: 0 },
      ],
    });
  });

  it("names the terminals not live and the three most severe open alerts the role sees", async () => {
    const manager = await rightNowReport(db, "manager", NOW);
    expect(manager.terminals).toEqual({
      not_live: 3,
      idle: 1,
      items: [
        { device_id: "bar-03", state: "late", since: "2026-07-11T23:50:00.000Z" },
        { device_id: "bar-02", state: "quiet", since: "2026-07-11T23:30:00.000Z" },
        { device_id: "food-01", state: "back", since: "2026-07-11T23:00:00.000Z" },
      ],
    });
    expect(manager.alerts.open).toBe(5);
    expect(manager.alerts.top.map((a) => a.subject)).toEqual(["sales", "bar-03", "bar-02"]);
    // A supervisor does not see the quota alert: the next warning takes its place.
    const supervisor = await rightNowReport(db, "supervisor", NOW);
    expect(supervisor.alerts.open).toBe(4);
    expect(supervisor.alerts.top.map((a) => a.subject)).toEqual(["bar-03", "bar-02", "worker"]);
  });
});

describe("the window and the previous day's same clock time", () => {
  const day = (id: string, date: string) => ({ id, name: id, date, starts_at: "", ends_at: "" });

  it("keeps the local clock across a daylight-saving change (Madrid, 25 October 2026)", () => {
    // 01:10 local on 26 Oct (CET, +1) → 01:10 local on 25 Oct (still CEST, +2): 25 h earlier.
    const at = new Date("2026-10-26T00:10:00.000Z");
    expect(
      previousInstant(at, "Europe/Madrid", day("d2", "2026-10-25"), day("d1", "2026-10-24")).toISOString(),
    ).toBe("2026-10-24T23:10:00.000Z");
  });

  it("goes back as many calendar days as lie between the two days (a day off between them)", () => {
    const at = new Date("2026-07-12T00:10:30.000Z");
    expect(
      previousInstant(at, "Europe/Madrid", day("d3", "2026-07-11"), day("d1", "2026-07-09")).toISOString(),
    ).toBe("2026-07-10T00:10:30.000Z");
  });

  it("starts at the event-local minute 14 minutes before the current one", () => {
    // Kathmandu is UTC+05:45: its minutes are the UTC minutes, its hours are not.
    expect(windowAt(new Date("2026-07-12T00:10:30.500Z"), "Asia/Kathmandu")).toEqual({
      from: new Date("2026-07-11T23:56:00.000Z"),
      to: new Date("2026-07-12T00:10:30.500Z"),
    });
  });
});

describe("GET /api/live/right-now", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ upstream: false, clock: () => NOW });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("answers a supervisor and refuses staff", async () => {
    const supervisor = (await h.signIn("supervisor", PASSWORDS.supervisor)).cookie;
    const ok = await h.call(rightNowRoute, "GET", "/api/live/right-now", { cookie: supervisor });
    expect(ok.status).toBe(200);
    const body = RightNowReport.parse(await ok.json());
    expect(body.now).toBe(NOW.toISOString());
    expect(body.sales.per_minute).toHaveLength(15);
    const staff = (await h.signIn("staff", PASSWORDS.staff)).cookie;
    const refused = await h.call(rightNowRoute, "GET", "/api/live/right-now", { cookie: staff });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  });
});
