import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { insertEventDays, saleRecord, topupRecord } from "@/lib/testing/mirror-records";
import { TEST_TOLERANCE } from "@/lib/testing/signoff-request";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { nightReport } from "../night/night";
import { nightCsv } from "../night/night-csv";
import { upsertSales, upsertTopups } from "../store/mirror";
import { salesCsv, topupsCsv } from "./sales-csv";

/**
 * Every export writes its cells through the one CSV writer: terminal ids that a spreadsheet would
 * run as formulas — after leading spaces too — arrive defused, and negative amounts stay numbers.
 */

const DAY = { id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" };
const HOSTILE = [" =1+1", " -2+3", "@cmd", "\t=1"];

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, [DAY]);
  await upsertSales(
    db,
    HOSTILE.map((device, i) =>
      saleRecord({ device, day: DAY.id, occurred: `2026-07-10T2${i}:00:00Z`, total: 1250 }),
    ),
  );
  await upsertSales(db, [
    saleRecord({
      device: "bar-1",
      day: DAY.id,
      occurred: "2026-07-10T21:30:00Z",
      total: -1250,
      type: "return",
    }),
  ]);
  await upsertTopups(
    db,
    HOSTILE.map((device, i) => topupRecord({ device, day: DAY.id, occurred: `2026-07-10T2${i}:10:00Z` })),
  );
});
afterAll(async () => {
  await db?.close();
});

const cellsOf = async (stream: ReadableStream<Uint8Array>) =>
  (await new Response(stream).text()).split("\r\n");

describe("the exports' cells", () => {
  it("the sales and top-ups exports defuse formula-like terminal ids and keep negative amounts as numbers", async () => {
    const sales = await cellsOf(salesCsv(db, DAY.id, "EUR", "Europe/Madrid", "en"));
    for (const device of HOSTILE) {
      expect(
        sales.some((line) => line.includes(`,'${device},EUR,12.50,`)),
        device,
      ).toBe(true);
      expect(
        sales.some((line) => line.includes(`,${device},`)),
        device,
      ).toBe(false);
    }
    expect(sales.some((line) => line.includes(",bar-1,EUR,-12.50,"))).toBe(true);
    const topups = await cellsOf(topupsCsv(db, DAY.id, null, "EUR", "Europe/Madrid", "en"));
    for (const device of HOSTILE)
      expect(topups.some((line) => line.includes(`,'${device},EUR,20.00`))).toBe(true);
  });

  it("the night export defuses them in its terminal lines", async () => {
    const report = await nightReport(db, {
      dayId: DAY.id,
      tolerance: TEST_TOLERANCE,
      now: new Date("2026-07-12T00:00:00Z"),
    });
    const lines = nightCsv(report).split("\r\n");
    for (const device of HOSTILE)
      expect(lines, device).toContain(`sales_by_terminal,'${device},'${device},1,12.50`);
    expect(lines).toContain("sales_by_terminal,bar-1,bar-1,1,-12.50");
  });
});
