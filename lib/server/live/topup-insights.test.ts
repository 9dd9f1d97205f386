import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { insertEventDays, saleRecord, topupRecord } from "@/lib/testing/mirror-records";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { upsertSales, upsertTopups } from "../store/mirror";
import { topupsDayReport } from "./reports";
import { liabilityOf } from "./topup-insights";

/** Top-ups by ticket type and channel, the average top-up, and the unspent paid balance per day. */

const DAYS = [
  { id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" },
  { id: "day_2", starts_at: "2026-07-11T10:00:00.000Z", ends_at: "2026-07-12T04:00:00.000Z" },
];

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, DAYS);
  await db.query(
    `insert into m_ticket_types (id, name, data) values ('tt_gen', 'General', '{}'), ('tt_vip', 'VIP', '{}')`,
  );
  const ticket = (id: string, type: string, wristband: string) =>
    db.query(
      `insert into m_tickets (id, code, status, ticket_type_id, updated_at, data)
       values ($1, $1, 'used', $2, now(), $3::jsonb)`,
      [id, type, JSON.stringify({ wristband: { id: wristband, nfc: `NFC${wristband}` } })],
    );
  await ticket("t1", "tt_gen", "wb_a");
  await ticket("t2", "tt_vip", "wb_b");
  const topup = (wristband: string, amount: number, method: string, day = "day_1", nature = "paid") => ({
    ...topupRecord({
      device: "topup-01",
      day,
      occurred: day === "day_1" ? "2026-07-10T18:00:00Z" : "2026-07-11T18:00:00Z",
      amount,
    }),
    wristband_id: wristband,
    payment_method: method,
    nature,
  });
  await upsertTopups(db, [
    topup("wb_a", 2000, "card"),
    topup("wb_a", 1000, "online"),
    topup("wb_b", 5000, "online"),
    topup("wb_c", 3000, "cash"), // a wristband without a known ticket
    topup("wb_b", 500, "promo", "day_1", "bonus"),
    topup("wb_a", 4000, "card", "day_2"),
  ] as never);
  await upsertTopups(db, [
    topupRecord({
      device: "refund-01",
      day: "day_1",
      occurred: "2026-07-11T01:00:00Z",
      amount: 1000,
      direction: "withdraw",
    }),
  ]);
  await upsertSales(db, [
    {
      ...saleRecord({ device: "bar-1", day: "day_1", occurred: "2026-07-10T20:00:00Z", total: 3500 }),
      payment_method: "wristband",
    },
    {
      ...saleRecord({ device: "bar-1", day: "day_2", occurred: "2026-07-11T20:00:00Z", total: 2000 }),
      payment_method: "card",
    },
  ]);
});
afterAll(async () => {
  await db?.close();
});

describe("top-up insights", () => {
  it("by ticket type, by channel, and the average paid top-up of a day", async () => {
    const report = await topupsDayReport(db, { dayId: "day_1", now: new Date("2026-07-11T09:00:00Z") });
    const i = report.insights!;
    expect(i.average_topup).toBe(Math.round(11_000 / 4));
    expect(i.by_ticket_type).toEqual([
      { ticket_type: "VIP", count: 1, amount: 5000, average: 5000 },
      { ticket_type: "General", count: 2, amount: 3000, average: 1500 },
      { ticket_type: null, count: 1, amount: 3000, average: 3000 },
    ]);
    expect(i.by_channel).toEqual([
      { channel: "online", count: 2, amount: 6000 },
      { channel: "on_site", count: 2, amount: 5000 },
    ]);
  });

  it("the unspent paid balance at the end of each day: promo credit is spent first", async () => {
    const report = await topupsDayReport(db, { dayId: "day_2", now: new Date("2026-07-12T09:00:00Z") });
    // Day 1: 11,000 paid in, 500 promo, 1,000 withdrawn, 3,500 spent at bars (500 of it promo).
    // Day 2: 4,000 more paid in; the card sale does not touch balances.
    expect(report.insights!.liability).toEqual([
      {
        day_id: "day_1",
        name: "Day 1",
        loaded: 11_000,
        withdrawn: 1000,
        spent: 3000,
        unspent: 7000,
        share: 7000 / 11_000,
      },
      {
        day_id: "day_2",
        name: "Day 2",
        loaded: 15_000,
        withdrawn: 1000,
        spent: 3000,
        unspent: 11_000,
        share: 11_000 / 15_000,
      },
    ]);
  });

  it("no share before anything is loaded", () => {
    expect(liabilityOf([{ id: "d", name: "D" }], [])).toEqual([
      { day_id: "d", name: "D", loaded: 0, withdrawn: 0, spent: 0, unspent: 0, share: null },
    ]);
  });
});
