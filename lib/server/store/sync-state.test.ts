import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import type { DayTotals } from "@/lib/shared/api/sync";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { isMirroredDay, replaceDays } from "./mirror";
import {
  dayCheck,
  dayChecks,
  insertResyncRequest,
  markResyncHandled,
  pendingResyncDays,
  pendingResyncSince,
  saveDayCheck,
} from "./sync-state";

/** The sync bookkeeping the night reconciliation reads and writes (PGlite; DATABASE_URL: PostgreSQL). */

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await replaceDays(db, [
    {
      object: "day",
      id: "day_2",
      name: "Saturday",
      date: "2026-07-11",
      starts_at: "2026-07-11T10:00:00.000Z",
      ends_at: "2026-07-12T04:00:00.000Z",
    },
    {
      object: "day",
      id: "day_1",
      name: "Friday",
      date: "2026-07-10",
      starts_at: "2026-07-10T10:00:00.000Z",
      ends_at: "2026-07-11T04:00:00.000Z",
    },
  ]);
});
afterAll(async () => {
  await db?.close();
});

const totals = (count: number): DayTotals => ({
  sales: { count, total: count * 100, total_base: count * 90, total_tax: count * 10 },
  topups: { count: 1, amount: 500 },
  withdrawals: { count: 0, amount: 0 },
});

describe("sync state", () => {
  it("keeps each day's latest checksum, adding up its re-walks", async () => {
    expect(await dayCheck(db, "day_1")).toBeNull();
    const upstream = { ...totals(3), generated_at: "2026-07-11T05:00:00.000Z" };
    const check = (dayId: string, at: Date, sales: number, rewalked: boolean) =>
      saveDayCheck(db, { dayId, at, matched: sales === 3, upstream, mirror: totals(sales), rewalked });
    const first = new Date("2026-07-11T05:00:01.000Z");
    const second = new Date("2026-07-11T05:00:31.000Z");
    await check("day_1", first, 2, true);
    await check("day_1", second, 3, false);
    await check("day_2", second, 3, false);

    expect(await dayCheck(db, "day_1")).toEqual({
      dayId: "day_1",
      name: "Friday",
      date: "2026-07-10",
      checkedAt: second.toISOString(),
      matched: true,
      upstream,
      mirror: totals(3),
      rewalks: 1,
      lastRewalkAt: first.toISOString(),
    });
    expect((await dayChecks(db)).map((c) => c.dayId)).toEqual(["day_1", "day_2"]);
  });

  it("records re-sync requests, reports the oldest pending one, and marks a day's handled", async () => {
    expect(await isMirroredDay(db, "day_1")).toBe(true);
    expect(await isMirroredDay(db, "nope")).toBe(false);
    expect(await pendingResyncSince(db, "day_2")).toBeNull();
    const at = new Date("2026-07-11T09:00:00.000Z");
    expect(await insertResyncRequest(db, "day_2", "supervisor", at)).toBe(at.toISOString());
    await insertResyncRequest(db, "day_2", "manager", new Date("2026-07-11T09:05:00.000Z"));
    await insertResyncRequest(db, "day_1", "supervisor", at);
    expect(await pendingResyncSince(db, "day_2")).toBe(at.toISOString());
    expect(await pendingResyncDays(db)).toEqual(["day_1", "day_2"]);

    await markResyncHandled(db, "day_2", new Date("2026-07-11T09:10:00.000Z"));
    expect(await pendingResyncSince(db, "day_2")).toBeNull();
    expect(await pendingResyncDays(db)).toEqual(["day_1"]);
  });
});
