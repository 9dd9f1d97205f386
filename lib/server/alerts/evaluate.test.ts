import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { insertEventDays, saleRecord, scanRecord, topupRecord } from "@/lib/testing/mirror-records";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { pushBus } from "../push";
import { openAlerts, setAttentionThresholds } from "../store/attention";
import { deleteDayRecordsNotIn, upsertSales, upsertScans, upsertTopups } from "../store/mirror";
import { insertSignoff } from "../store/night-records";
import { DEFAULT_ATTENTION } from "../terminals";
import { terminalDetail, terminalsView } from "../terminals/views";
import { evaluateAttention } from "./evaluate";
import { acknowledge, alertsView } from "./views";

/**
 * Terminal states and alerts on a real store (PGlite; DATABASE_URL runs it in a throwaway
 * PostgreSQL schema): the device tables the triggers keep, the states and alerts after each cycle.
 */

const MIN = 60_000;
const DAYS = [
  { id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" },
  { id: "day_2", starts_at: "2026-07-11T10:00:00.000Z", ends_at: "2026-07-12T04:00:00.000Z" },
];
const at = (iso: string, minutes = 0) => new Date(Date.parse(iso) + minutes * MIN);
const T0 = "2026-07-11T18:00:00.000Z";
const MANAGER = { id: "u_m", username: "manager", role: "manager" as const };

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, DAYS);
});
afterAll(async () => {
  await db?.close();
});

/** One sale a minute at each bar from `from` for `minutes`, online. */
async function sellEveryMinute(devices: string[], from: string, minutes: number) {
  await upsertSales(
    db,
    devices.flatMap((device) =>
      Array.from({ length: minutes }, (_, i) =>
        saleRecord({ device, day: "day_2", occurred: at(from, i), total: 500 }),
      ),
    ),
  );
}

const stateOf = async (device: string) =>
  (await terminalsView(db, new Date(T0))).terminals.find((t) => t.device_id === device);

describe("device tables kept by the triggers", () => {
  it("equal a full recompute after inserts, re-sends, status changes and a day re-walk", async () => {
    const scratch = await openTestDashboardStore();
    try {
      await insertEventDays(scratch, DAYS);
      const sales = Array.from({ length: 60 }, (_, i) =>
        saleRecord({
          device: `bar-0${i % 3}`,
          day: i % 2 ? "day_1" : "day_2",
          occurred: at(T0, -i * 7),
          created: at(T0, -i * 7 + (i % 5 === 0 ? 25 : 0)),
          total: 100 + i,
          type: i % 11 === 0 ? "return" : "cart",
        }),
      );
      await upsertSales(scratch, sales);
      await upsertTopups(scratch, [
        topupRecord({ device: "refund-01", day: "day_2", occurred: at(T0, -3), direction: "withdraw" }),
        topupRecord({ device: "topup-01", day: "day_2", occurred: at(T0, -4) }),
      ]);
      await upsertScans(scratch, [scanRecord({ device: "gate-01", day: "day_2", occurred: at(T0, -2) })]);
      await upsertSales(scratch, [{ ...sales[3]!, status: "cancelled" }, sales[4]!]); // a change and a re-send
      await deleteDayRecordsNotIn(
        scratch,
        "m_sales",
        "day_1",
        sales.filter((_, i) => i % 4 === 1).map((s) => s.id),
      );
      const snapshot = async () => ({
        day: await scratch.query("select * from a_device_day order by day_id, device_id"),
        minute: await scratch.query(
          "select device_id, minute, records, money, refunds from a_device_minute order by device_id, minute",
        ),
        late: await scratch.query("select * from a_device_late order by device_id, arrived, day_id"),
      });
      const kept = await snapshot();
      await scratch.query("select attention_recompute()");
      const recomputed = await snapshot();
      expect(kept.minute).toEqual(recomputed.minute);
      expect(kept.late).toEqual(recomputed.late);
      // high-water marks may stay ahead of what remains (documented); the sums may not
      const sums = (rows: Record<string, unknown>[]) =>
        rows.map(({ last_occurred_at: _, last_created_at: __, ...r }) => r);
      expect(sums(kept.day)).toEqual(sums(recomputed.day));
      expect(kept.day.length).toBeGreaterThan(4);
    } finally {
      await scratch.close();
    }
  });
});

describe("a terminal's rhythm", () => {
  it("follows its last twenty records, not two hours' average: a bar that got busy is missed sooner", async () => {
    const scratch = await openTestDashboardStore();
    try {
      await insertEventDays(scratch, DAYS);
      // 16:20 → 17:30 a sale every 10 minutes, then 17:40 → 17:59 one a minute; silent since.
      const slow = Array.from({ length: 8 }, (_, i) => at("2026-07-11T16:20:00.000Z", i * 10));
      const busy = Array.from({ length: 20 }, (_, i) => at("2026-07-11T17:40:00.000Z", i));
      await upsertSales(
        scratch,
        [...slow, ...busy].map((occurred) =>
          saleRecord({ device: "bar-09", day: "day_2", occurred, total: 500 }),
        ),
      );
      const now = at(T0, 13); // 18:13: 14 minutes without a sale
      await evaluateAttention(scratch, DEFAULT_ATTENTION, now);
      const bar = (await terminalsView(scratch, now)).terminals.find((t) => t.device_id === "bar-09")!;
      // Its last twenty sales came a minute apart: quiet after the 10-minute minimum. Over the two
      // hours (28 sales since 16:20) its gap would be 3.7 minutes, and it would be quiet only at 18:14.
      expect(bar.normal_gap_s).toBe(60);
      expect(bar.quiet_after_s).toBe(600);
      expect(bar.state).toBe("quiet");
    } finally {
      await scratch.close();
    }
  });
});

describe("states and alerts after each cycle", () => {
  it("live terminals, then one goes quiet: an alert after 15 minutes during opening hours", async () => {
    await sellEveryMinute(["bar-01", "bar-02"], "2026-07-11T16:00:00.000Z", 120); // 16:00 → 17:59
    await evaluateAttention(db, DEFAULT_ATTENTION, new Date(T0));
    expect((await stateOf("bar-01"))?.state).toBe("live");
    expect(await stateOf("bar-01")).toMatchObject({
      station: "bar",
      records_today: 120,
      money_today: 60_000,
    });

    // bar-02 goes offline at 18:00 and keeps selling into its buffer; bar-01 goes on.
    await sellEveryMinute(["bar-01"], T0, 20);
    const pushed: string[] = [];
    const unsubscribe = pushBus(db).subscribe((s) => s !== "reset" && pushed.push(...s.topics));
    await evaluateAttention(db, DEFAULT_ATTENTION, at(T0, 11));
    const quiet = (await terminalsView(db, at(T0, 11))).terminals.find((t) => t.device_id === "bar-02")!;
    expect(quiet.state).toBe("quiet");
    expect(await openAlerts(db)).toEqual([]); // not 15 minutes yet
    expect(pushed).toEqual([]); // no alert opened or closed: the browsers are not told

    await evaluateAttention(db, DEFAULT_ATTENTION, at(T0, 16));
    unsubscribe();
    expect(pushed).toEqual(["alerts"]); // one opened: the browsers refetch their alerts
    const [alert] = await openAlerts(db);
    expect(alert).toMatchObject({ kind: "terminal_quiet", subject: "bar-02", link: "/terminals/bar-02" });
    expect(alert?.figures).toMatchObject({ silent_minutes: 17 }); // its last sale was at 17:59
    const since = (await terminalsView(db, at(T0, 16))).terminals.find(
      (t) => t.device_id === "bar-02",
    )!.since;
    expect(since).toBe(at(T0, 11).toISOString()); // the state holds: its start is kept
  });

  it("acknowledged, then back with a burst: the alert resolves and the terminal shows what it moved", async () => {
    const [alert] = await openAlerts(db);
    const pushed: string[] = [];
    const unsubscribe = pushBus(db).subscribe((s) => s !== "reset" && pushed.push(...s.topics));
    const acked = await acknowledge(db, MANAGER, alert!.id, "Runner sent to bar 2", at(T0, 17));
    unsubscribe();
    expect(pushed).toEqual(["alerts"]);
    expect(acked).toMatchObject({ acknowledged_by: "manager", ack_comment: "Runner sent to bar 2" });

    // 18:30: bar-02 is back and syncs its 30 buffered sales (18:00 → 18:29) at once.
    const back = at(T0, 30);
    await upsertSales(
      db,
      Array.from({ length: 30 }, (_, i) =>
        saleRecord({ device: "bar-02", day: "day_2", occurred: at(T0, i), created: back, total: 700 }),
      ),
    );
    await evaluateAttention(db, DEFAULT_ATTENTION, at(T0, 30.5));
    const row = (await terminalsView(db, at(T0, 30.5))).terminals.find((t) => t.device_id === "bar-02")!;
    expect(row.state).toBe("back");
    const lateOnes = 30 - 10; // those that happened more than 10 minutes before 18:30
    expect(row.burst).toEqual([{ day_id: "day_2", records: lateOnes, money: lateOnes * 700 }]);
    expect(row.late_today).toBe(lateOnes);
    expect(row.late_share).toBeCloseTo(lateOnes / 150);
    expect(await openAlerts(db)).toEqual([]);
    const history = await alertsView(db, "manager", { now: at(T0, 30.5) });
    expect(history.alerts[0]).toMatchObject({ state: "resolved", acknowledged_by: "manager" });

    const detail = await terminalDetail(db, "bar-02", at(T0, 30.5));
    expect(detail.records[0]).toMatchObject({ kind: "sale", late: false });
    expect(detail.records.filter((r) => r.late)).toHaveLength(lateOnes);
  });

  it("an alert that comes back after it resolved opens again, unacknowledged", async () => {
    await evaluateAttention(db, DEFAULT_ATTENTION, at(T0, 30 + 50)); // bar-02 silent again since 18:29
    const open = await openAlerts(db);
    const again = open.find((a) => a.subject === "bar-02")!;
    expect(again.acknowledged_by).toBeNull();
    expect(open.some((a) => a.subject === "bar-01")).toBe(true); // bar-01 stopped at 18:19
    expect(
      (await alertsView(db, "manager", { now: at(T0, 80) })).alerts.filter((a) => a.subject === "bar-02"),
    ).toHaveLength(2);
    // staff see only the kinds that concern them
    expect((await alertsView(db, "staff", { now: at(T0, 80) })).alerts).toEqual([]);
    await expect(
      acknowledge(db, { ...MANAGER, role: "staff" }, again.id, "", at(T0, 81)),
    ).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("a sign-off followed by a late burst: the alert names the amount, the night moved", async () => {
    await upsertSales(db, [
      saleRecord({ device: "bar-03", day: "day_1", occurred: "2026-07-10T20:00:00Z", total: 1000 }),
    ]);
    const signedAt = "2026-07-11T09:00:00.000Z";
    await insertSignoff(db, {
      day_id: "day_1",
      signed_at: signedAt,
      user_id: "u_s",
      username: "supervisor",
      comment: "",
      counted: [],
      snapshot: {
        figures: { sales: { count: 1, total: 1000 }, topups: { amount: 0 }, withdrawals: { amount: 0 } },
      } as never,
      idempotency_key: "8f14e45f-ceea-467a-9575-f2b5e6a5c0d1",
      supersedes: null,
      needs_approval: false,
    });
    const now = at(T0, 90);
    await evaluateAttention(db, DEFAULT_ATTENTION, now);
    expect((await openAlerts(db)).some((a) => a.kind === "signed_night_moved")).toBe(false);

    // bar-03 was offline since last night: three sales of day_1 arrive now.
    await upsertSales(
      db,
      [1, 2, 3].map((i) =>
        saleRecord({
          device: "bar-03",
          day: "day_1",
          occurred: `2026-07-11T0${i}:00:00Z`,
          created: now,
          total: 450,
        }),
      ),
    );
    await evaluateAttention(db, DEFAULT_ATTENTION, at(T0, 91));
    const moved = (await openAlerts(db)).find((a) => a.kind === "signed_night_moved")!;
    expect(moved).toMatchObject({
      subject: "day_1",
      severity: "critical",
      link: "/reconciliation?day_id=day_1",
    });
    expect(moved.figures).toMatchObject({ sales_delta: 1350, count_delta: 3, terminals: 1 });
    // nothing newer from it yet: it is offline, syncing late, and shows what its late records moved
    const bar3 = (await terminalsView(db, at(T0, 91))).terminals.find((t) => t.device_id === "bar-03")!;
    expect(bar3.state).toBe("late");
    expect(bar3.burst).toEqual([{ day_id: "day_1", records: 3, money: 1350 }]);
  });

  it("a refund spike at one desk raises an alert for it and for the event", async () => {
    const now = at(T0, 120);
    await upsertTopups(
      db,
      Array.from({ length: 8 }, (_, i) =>
        topupRecord({
          device: "refund-01",
          day: "day_2",
          occurred: at(T0, 110 + i),
          direction: "withdraw",
          amount: 900,
        }),
      ),
    );
    await evaluateAttention(db, DEFAULT_ATTENTION, now);
    const spikes = (await openAlerts(db)).filter((a) => a.kind === "refund_spike").map((a) => a.subject);
    expect(spikes.sort()).toEqual(["*", "refund-01"]);
  });

  it("refunds stamped ahead of the clock (a desk whose clock runs fast) count once their minutes have come", async () => {
    const store = await openTestDashboardStore();
    try {
      await insertEventDays(store, DAYS);
      await upsertTopups(
        store,
        Array.from({ length: 8 }, (_, i) =>
          topupRecord({ device: "refund-02", day: "day_2", occurred: at(T0, 30 + i), direction: "withdraw" }),
        ),
      );
      const spikesAt = async (minutes: number) => {
        await evaluateAttention(store, DEFAULT_ATTENTION, at(T0, minutes));
        return (await openAlerts(store)).filter((a) => a.kind === "refund_spike").map((a) => a.subject);
      };
      expect(await spikesAt(0)).toEqual([]);
      expect((await spikesAt(40)).sort()).toEqual(["*", "refund-02"]);
    } finally {
      await store.close();
    }
  });

  it("at the opening of a night, refunds at the earlier nights' pace are no spike; more than three times that pace is", async () => {
    const store = await openTestDashboardStore();
    try {
      await insertEventDays(store, DAYS);
      const withdrawals = (device: string, day: string, from: Date, count: number, everyMin: number) =>
        upsertTopups(
          store,
          Array.from({ length: count }, (_, i) =>
            topupRecord({
              device,
              day,
              occurred: new Date(from.getTime() + i * everyMin * MIN),
              direction: "withdraw",
            }),
          ),
        );
      // Night 1 (18 hours): a refund desk returning money every 2.5 minutes, 6 in 15 minutes.
      await withdrawals("refund-01", "day_1", at(DAYS[0].starts_at), 432, 2.5);
      // Night 2 opens: 8 refunds in its first 10 minutes is that desk's usual pace.
      const opening = at(DAYS[1].starts_at);
      await withdrawals("refund-01", "day_2", opening, 8, 1.25);
      await evaluateAttention(store, DEFAULT_ATTENTION, at(DAYS[1].starts_at, 10));
      expect((await openAlerts(store)).filter((a) => a.kind === "refund_spike")).toEqual([]);
      // Fourteen more in the next five minutes: over 20 in 15 minutes, more than three times the usual.
      await withdrawals("refund-01", "day_2", at(DAYS[1].starts_at, 10), 14, 0.35);
      await evaluateAttention(store, DEFAULT_ATTENTION, at(DAYS[1].starts_at, 15.5));
      const spikes = (await openAlerts(store)).filter((a) => a.kind === "refund_spike");
      expect(spikes.map((a) => a.subject).sort()).toEqual(["*", "refund-01"]);
      expect(spikes[0].figures).toMatchObject({ normal_15_min: 6, normal_from: "earlier_days" });
    } finally {
      await store.close();
    }
  });

  it("a wristband seen below zero by a top-up that just arrived opens the negative-balance alert", async () => {
    const now = at(T0, 121);
    await upsertTopups(db, [
      {
        ...topupRecord({ device: "topup-01", day: "day_2", occurred: at(T0, 120.5) }),
        previous_balance: -750,
        new_balance: 1250,
      },
    ]);
    await evaluateAttention(db, DEFAULT_ATTENTION, now);
    const alert = (await openAlerts(db)).find((a) => a.kind === "negative_balance");
    expect(alert?.figures).toEqual({ wristbands: 1, lowest: -750 });
    // an hour later it is no longer new: the alert resolves
    await evaluateAttention(db, DEFAULT_ATTENTION, at(T0, 121 + 61));
    expect((await openAlerts(db)).some((a) => a.kind === "negative_balance")).toBe(false);
  });

  it("a shorter late threshold rebuilds the device tables", async () => {
    const before = (await terminalsView(db, at(T0, 120))).terminals.find((t) => t.device_id === "bar-02")!;
    expect(await setAttentionThresholds(db, { late: 60, quiet: 600 })).toBe(true);
    expect(await setAttentionThresholds(db, { late: 60, quiet: 600 })).toBe(false);
    const after = (await terminalsView(db, at(T0, 120))).terminals.find((t) => t.device_id === "bar-02")!;
    expect(after.late_today).toBeGreaterThan(before.late_today);
    await setAttentionThresholds(db, { late: 600, quiet: 600 });
  });
});
