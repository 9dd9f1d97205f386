import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_NOW, type TestApi } from "@/integration-api/testing/test-api";
import type { Db } from "@/lib/db/db";
import { openTestDashboardStore } from "@/lib/testing/dashboard-store";
import { realApiWithClient } from "@/lib/testing/real-api-sync";
import { SyncWorker } from "../sync/worker";
import { cumulativeAt, type DaySeries, forecastOf, project, seriesOf } from "./forecast";
import { overviewReport } from "./reports";

const HOUR = 3_600_000;
const day = (id: string, start: string, hours = 18) => ({
  id,
  name: id,
  starts_at: start,
  ends_at: new Date(Date.parse(start) + hours * HOUR).toISOString(),
});
const series = (id: string, start: string, hours: number[]): DaySeries => ({
  day: day(id, start, hours.length),
  hours,
});

describe("forecast arithmetic", () => {
  it("a day's sales up to a point of its window, a partial hour pro rata", () => {
    expect(cumulativeAt([10, 20, 30], 0)).toBe(0);
    expect(cumulativeAt([10, 20, 30], 1.5)).toBe(20);
    expect(cumulativeAt([10, 20, 30], 9)).toBe(60);
  });

  it("projects from the earlier days' shares at the same point, with their range", () => {
    // Two earlier days: by 2 hours in, one had sold 25 % of its day, the other 50 %.
    const history = [
      series("d1", "2026-07-09T10:00:00Z", [10, 15, 75]),
      series("d2", "2026-07-10T10:00:00Z", [20, 30, 50]),
    ];
    const p = project(300, 2, history);
    expect(p).toMatchObject({ projected_total: 800, low: 600, high: 1200, basis_days: 2, reason: null });
  });

  it("says why there is no figure: the first day, nothing to compare, nothing sold yet", () => {
    const today = series("d1", "2026-07-09T10:00:00Z", [5, 0, 0]);
    const now = new Date("2026-07-09T11:00:00Z");
    expect(forecastOf(today, [], now, true).forecast).toMatchObject({
      reason: "first_day",
      projected_total: null,
    });
    expect(forecastOf(today, [], now, false).forecast.reason).toBe("no_history");
    const nothing = series("d2", "2026-07-10T10:00:00Z", [0, 0, 0]);
    expect(
      forecastOf(
        nothing,
        [series("d1", "2026-07-09T10:00:00Z", [5, 5, 5])],
        new Date("2026-07-10T10:30:00Z"),
        false,
      ).forecast.reason,
    ).toBe("too_early");
  });

  it("waits until the earlier nights had made 5 % of their sales by this point", () => {
    // A slow opening: 1 % of the night in its first hour, 4 % by the second, 19 % by the third.
    const history = [series("d1", "2026-07-09T10:00:00Z", [1, 3, 15, 81])];
    const today = (sold: number[]) => series("d2", "2026-07-10T10:00:00Z", sold);
    const at = (hours: number) => new Date(Date.parse("2026-07-10T10:00:00Z") + hours * HOUR);
    // Ten minutes in, a flat-rate opening would have projected 60 times the night before.
    expect(forecastOf(today([10, 0, 0, 0]), history, at(1 / 6), false).forecast).toMatchObject({
      reason: "early_in_night",
      projected_total: null,
    });
    expect(forecastOf(today([1, 3, 0, 0]), history, at(2), false).forecast.reason).toBe("early_in_night");
    expect(forecastOf(today([1, 3, 15, 0]), history, at(3), false).forecast).toMatchObject({
      reason: null,
      projected_total: 100,
    });
  });

  it("compares with yesterday at the same point and spreads the rest as the earlier days did", () => {
    const history = [series("d1", "2026-07-09T10:00:00Z", [10, 30, 60])];
    const today = series("d2", "2026-07-10T10:00:00Z", [12, 0, 0]);
    const { forecast, hourly } = forecastOf(today, history, new Date("2026-07-10T11:00:00Z"), false);
    expect(forecast.projected_total).toBe(120);
    expect(forecast.vs_yesterday_pct).toBe(20);
    expect(hourly).toEqual([null, 36, 72]);
  });

  it("buckets outside the window are left out; a daylight-saving night has its 19 hours", () => {
    const dst = day("d", "2026-10-24T10:00:00Z", 19);
    const s = seriesOf(dst, [
      { hour: "2026-10-24T10:00:00.000Z", total: 5 },
      { hour: "2026-10-25T04:00:00.000Z", total: 7 },
      { hour: "2026-10-25T05:00:00.000Z", total: 9 },
    ]);
    expect(s.hours).toHaveLength(19);
    expect([s.hours[0], s.hours[18]]).toEqual([5, 7]);
  });
});

/** The seed's past days: the forecast of day 2 from day 1, against day 2's known outcome. */
describe("the forecast on the demo seed", () => {
  let api: TestApi;
  let db: Db;
  beforeAll(async () => {
    const real = await realApiWithClient();
    api = real.api;
    db = await openTestDashboardStore();
    const log = { info() {}, warn() {}, error() {} };
    await new SyncWorker({ db, client: real.client, intervalMs: 30_000, log }).runOnce();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await api?.close();
  });

  it("shows how far it was from a day whose outcome is known, and projects today within its range", async () => {
    const days = await db.query<{ id: string; starts_at: string; ends_at: string }>(
      "select id, starts_at, ends_at from m_days order by starts_at",
    );
    // The seed's now: ten and a half hours into day 3 (today); days 1 and 2 are over.
    const report = await overviewReport(db, TEST_NOW);
    const f = report.forecast!;
    expect(f.reason).toBeNull();
    expect(f.basis_days).toBe(2);
    expect(f.low!).toBeLessThanOrEqual(f.projected_total!);
    expect(f.projected_total!).toBeLessThanOrEqual(f.high!);
    expect(f.projected_total!).toBeGreaterThanOrEqual(f.so_far);
    const backtest = f.backtest!;
    expect(backtest.day_id).toBe(days[1]!.id);
    const actual = await db.query<{ total: number }>(
      "select sum(total)::float8 as total from a_sales_hour where day_id = $1",
      [days[1]!.id],
    );
    expect(backtest.actual).toBe(actual[0]!.total);
    expect(backtest.error_pct).toBe(
      Math.round(((backtest.predicted - backtest.actual) / backtest.actual) * 1000) / 10,
    );
    // The seed's nights follow one curve: at this point the method lands within 5 % of day 2's close
    // (measured: +0.6 %; four hours in, with less of the night seen, it was −16.9 %).
    expect(Math.abs(backtest.error_pct)).toBeLessThan(5);
    // The dashed line covers the hours still to come, and adds up to the rest of the projection.
    const ahead = report.hours.filter((h) => h.forecast_total !== null);
    expect(ahead.length).toBe(18 - Math.floor((TEST_NOW.getTime() - Date.parse(days[2]!.starts_at)) / HOUR));
    expect(report.hours[0]!.forecast_total).toBeNull();
    // On the first day there is no forecast, and the report says why.
    const first = await overviewReport(db, new Date(Date.parse(days[0]!.starts_at) + 4 * HOUR));
    expect(first.forecast?.reason).toBe("first_day");
  });
});
