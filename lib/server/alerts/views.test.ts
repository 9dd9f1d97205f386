import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { insertAlert } from "../store/attention";
import { ALERTS_ON_PAGE, alertsView } from "./views";

/**
 * The alerts screen when more alerts are open than it lists (a long night of misuse alerts): the
 * count stays true, and an acknowledgement link's alert is read by its id, not looked for in the
 * newest ones.
 */

const T0 = Date.parse("2026-07-11T18:00:00.000Z");
const MORE = 5;
/** The screen is read a while after the last alert opened. */
const now = new Date(T0 + 3_600_000);

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  // The oldest first: a quiet terminal, then a page and more of double swipes, each newer.
  await insertAlert(
    db,
    {
      kind: "terminal_quiet",
      subject: "bar-07",
      severity: "warning",
      figures: {},
      link: "/terminals/bar-07",
    },
    new Date(T0),
  );
  for (let i = 1; i < ALERTS_ON_PAGE + MORE; i++)
    await insertAlert(
      db,
      { kind: "double_swipe", subject: `case-${i}`, severity: "warning", figures: {}, link: "/gates/misuse" },
      new Date(T0 + i * 1000),
    );
});
afterAll(async () => {
  await db?.close();
});

describe("alertsView with more open alerts than a page", () => {
  it("lists the newest ones and counts them all", async () => {
    const view = await alertsView(db, "manager", { now });
    expect(view.alerts).toHaveLength(ALERTS_ON_PAGE);
    expect(view.open).toBe(ALERTS_ON_PAGE + MORE);
    expect(view.alerts.some((a) => a.subject === "bar-07")).toBe(false);
    expect(view.alerts[0]?.subject).toBe(`case-${ALERTS_ON_PAGE + MORE - 1}`);
  });

  it("reads one alert by its id however old it is", async () => {
    const [oldest] = await db.query<{ id: string }>("select id::text as id from alerts order by id limit 1");
    const view = await alertsView(db, "manager", { only: oldest!.id, now });
    expect(view.alerts.map((a) => [a.id, a.kind, a.subject])).toEqual([
      [oldest!.id, "terminal_quiet", "bar-07"],
    ]);
    expect(view.open).toBe(ALERTS_ON_PAGE + MORE);
  });

  it("gives nothing for an alert of a kind the role does not see, or an id nobody has", async () => {
    const [swipe] = await db.query<{ id: string }>(
      "select id::text as id from alerts where kind = 'double_swipe' order by id limit 1",
    );
    expect((await alertsView(db, "staff", { only: swipe!.id, now })).alerts).toEqual([]);
    expect((await alertsView(db, "staff", { now })).open).toBe(0);
    expect((await alertsView(db, "manager", { only: "999999999", now })).alerts).toEqual([]);
  });
});
