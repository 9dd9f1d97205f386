import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { insertEventDays, saleRecord } from "@/lib/testing/mirror-records";
import { signoffRequest, TEST_TOLERANCE } from "@/lib/testing/signoff-request";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { upsertSales } from "../store/mirror";
import { completenessOf, nightCompleteness, waiveTerminal } from "./completeness";
import { nightReport } from "./night";
import { signOff } from "./signoff";

/** Is tonight complete: terminals that may still hold records, waivers, adjustments after sign-off. */

const MIN = 60_000;
const DAYS = [{ id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" }];
const SUPERVISOR = { id: "u_s", username: "supervisor", role: "supervisor" };
const at = (iso: string, minutes = 0) => new Date(Date.parse(iso) + minutes * MIN);

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, DAYS);
  // bar-1 and bar-2 sell until 03:50; bar-3 went silent at 23:00 (offline, its buffer not synced).
  const night = (device: string, until: string) =>
    Array.from({ length: 12 }, (_, i) =>
      saleRecord({ device, day: "day_1", occurred: at(until, -i * 10), total: 1000 }),
    );
  await upsertSales(db, [
    ...night("bar-1", "2026-07-11T03:50:00Z"),
    ...night("bar-2", "2026-07-11T03:50:00Z"),
    ...night("bar-3", "2026-07-10T23:00:00Z"),
  ]);
});
afterAll(async () => {
  await db?.close();
});

describe("completeness of a night", () => {
  it("a terminal last heard of long before the night's last activity is pending: the night is provisional", async () => {
    const c = await nightCompleteness(db, DAYS[0]!);
    expect(c.provisional).toBe(true);
    expect(c.last_activity).toBe("2026-07-11T03:50:00.000Z"); // the newest record of the night
    expect(c.terminals.filter((t) => t.pending).map((t) => t.device_id)).toEqual(["bar-3"]);
    expect(c.terminals.find((t) => t.device_id === "bar-3")).toMatchObject({
      records: 12,
      synced_up_to: "2026-07-10T23:00:00.000Z",
      waiver: null,
    });
  });

  it("the quiet minimum decides: a terminal that closed 9 minutes early is not pending", () => {
    const t = (device_id: string, last: string) => ({
      device_id,
      records: 5,
      night_last_record: last,
      synced_up_to: last,
      last_arrival: last,
    });
    const terminals = [t("a", "2026-07-11T03:41:00Z"), t("b", "2026-07-11T03:50:00Z")];
    expect(completenessOf(terminals, [], 10 * MIN).provisional).toBe(false);
    expect(completenessOf(terminals, [], 8 * MIN).terminals.map((x) => x.pending)).toEqual([true, false]);
  });

  it("the night's last activity is its newest record: a bar closed at 05:59 is not waited for while the gates sell the next night", () => {
    const terminals = [
      {
        device_id: "bar",
        records: 5,
        night_last_record: "2026-07-11T03:59:00Z",
        synced_up_to: "2026-07-11T03:59:00Z",
        last_arrival: "2026-07-11T03:59:00Z",
      },
      {
        device_id: "gate",
        records: 5,
        night_last_record: "2026-07-11T03:55:00Z",
        synced_up_to: "2026-07-11T18:00:00Z",
        last_arrival: "2026-07-11T18:00:00Z",
      },
    ];
    const c = completenessOf(terminals, [], 10 * MIN);
    expect(c.last_activity).toBe("2026-07-11T03:59:00Z");
    expect(c.provisional).toBe(false);
  });

  it("a waiver names who and why; the night is no longer provisional, and the sign-off records it", async () => {
    await expect(
      waiveTerminal(
        db,
        SUPERVISOR,
        { day_id: "day_1", device_id: "bar-9", reason: "never here" },
        at("2026-07-11T09:00:00Z"),
      ),
    ).rejects.toMatchObject({ code: "invalid_parameter", param: "device_id" });
    const c = await waiveTerminal(
      db,
      SUPERVISOR,
      { day_id: "day_1", device_id: "bar-3", reason: "Terminal broken, paper receipts counted" },
      at("2026-07-11T09:00:00Z"),
    );
    expect(c.provisional).toBe(false);
    expect(c.terminals.find((t) => t.device_id === "bar-3")?.waiver).toMatchObject({
      username: "supervisor",
      reason: "Terminal broken, paper receipts counted",
    });
    // Once per terminal and night: a second waiver is refused, naming the first.
    await expect(
      waiveTerminal(
        db,
        SUPERVISOR,
        { day_id: "day_1", device_id: "bar-3", reason: "again" },
        at("2026-07-11T09:05:00Z"),
      ),
    ).rejects.toMatchObject({
      code: "already_waived",
      status: 409,
      message: expect.stringContaining("supervisor waived bar-3"),
    });
    // Only a pending terminal: bar-1 synced.
    await expect(
      waiveTerminal(
        db,
        SUPERVISOR,
        { day_id: "day_1", device_id: "bar-1", reason: "why not" },
        at("2026-07-11T09:05:00Z"),
      ),
    ).rejects.toMatchObject({ code: "terminal_not_pending", status: 409 });
    const { signoff } = await signOff(
      db,
      SUPERVISOR,
      // Never checked against an upstream summary here: signed against that, explicitly.
      signoffRequest({ day_id: "day_1", sign_against_difference: true }),
      { tolerance: TEST_TOLERANCE, now: at("2026-07-11T09:30:00Z") },
    );
    expect(signoff.snapshot.completeness).toMatchObject({ provisional: false });
    expect(signoff.snapshot.signed_against_difference).toBe(true);
  });

  it("a running night cannot be waived: its terminals may still sync", async () => {
    await expect(
      waiveTerminal(
        db,
        SUPERVISOR,
        { day_id: "day_1", device_id: "bar-3", reason: "too early" },
        at("2026-07-11T03:00:00Z"),
      ),
    ).rejects.toMatchObject({ code: "night_not_ended", status: 409 });
  });

  it("records that arrive after the sign-off are adjustments per terminal; the snapshot stays as it was", async () => {
    const arrived = at("2026-07-11T11:00:00Z");
    await upsertSales(db, [
      saleRecord({
        device: "bar-3",
        day: "day_1",
        occurred: "2026-07-11T01:00:00Z",
        created: arrived,
        total: 450,
      }),
      saleRecord({
        device: "bar-3",
        day: "day_1",
        occurred: "2026-07-11T01:05:00Z",
        created: arrived,
        total: 550,
      }),
    ]);
    const report = await nightReport(db, {
      dayId: "day_1",
      now: at("2026-07-11T11:01:00Z"),
      tolerance: TEST_TOLERANCE,
    });
    expect(report.adjustments?.by_device).toEqual([
      { device_id: "bar-3", count: 2, amount: 1000, latest_created_at: arrived.toISOString() },
    ]);
    expect(report.signoffs[0]?.snapshot.figures.sales.total).toBe(36_000);
    expect(report.figures?.sales.total).toBe(37_000);
    // bar-3 has synced since: the night waits for no one
    expect(report.completeness?.terminals.find((t) => t.device_id === "bar-3")?.pending).toBe(false);
  });
});
