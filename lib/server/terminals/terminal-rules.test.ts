import { describe, expect, it } from "vitest";
import {
  DEFAULT_ATTENTION,
  type DeviceActivity,
  normalGap,
  stationOf,
  terminalState,
} from "./terminal-rules";

const MIN = 60_000;
const now = new Date("2026-07-11T20:00:00Z");
const ago = (minutes: number) => new Date(now.getTime() - minutes * MIN);
const dayStart = ago(8 * 60); // 12:00 → 20:00 UTC: eight hours into the day

function activity(over: Partial<DeviceActivity> = {}): DeviceActivity {
  return {
    deviceId: "bar-01",
    today: { records: 480, money: 480_00, lateRecords: 0, refunds: 0 },
    lastOccurredAt: ago(1),
    lastCreatedAt: ago(1),
    recentRecords: 120, // one a minute over the last two hours
    recentFirstAt: ago(120),
    lateArrivals: [],
    ...over,
  };
}

const stateOf = (a: DeviceActivity, start: Date | null = dayStart) =>
  terminalState(a, now, start, DEFAULT_ATTENTION).state;

describe("terminal states", () => {
  it("a terminal selling at its rhythm is live", () => {
    expect(stateOf(activity())).toBe("live");
  });

  it("a busy terminal silent for 9 minutes is still live: at least 10 minutes before quiet", () => {
    expect(stateOf(activity({ lastOccurredAt: ago(9), lastCreatedAt: ago(9) }))).toBe("live");
    expect(stateOf(activity({ lastOccurredAt: ago(11), lastCreatedAt: ago(11) }))).toBe("quiet");
  });

  it("a terminal opened twenty minutes ago takes its rhythm from its records since, not from the silence", () => {
    // 21 records from 20 minutes ago to 10.5 minutes ago: a record every 28.5 s.
    const opened = activity({
      recentRecords: 21,
      recentFirstAt: ago(20),
      lastOccurredAt: ago(10.5),
      lastCreatedAt: ago(10.5),
    });
    expect(normalGap(opened, now, dayStart)).toBe(28_500);
    expect(stateOf(opened)).toBe("quiet");
    expect(stateOf({ ...opened, lastOccurredAt: ago(9.5), lastCreatedAt: ago(9.5) })).toBe("live");
  });

  it("a slow terminal is quiet only after four of its usual gaps", () => {
    // 4 records 20 minutes apart in the last two hours: quiet after 80 minutes without one.
    const recent = activity({
      recentRecords: 4,
      recentFirstAt: ago(110),
      lastOccurredAt: ago(50),
      lastCreatedAt: ago(50),
    });
    expect(normalGap(recent, now, dayStart)).toBe(20 * MIN);
    expect(stateOf(recent)).toBe("live");
    // Silent longer: too few of its records are left in the window, today's rhythm (24 in 8 hours) speaks.
    const slow = (last: number) =>
      activity({
        today: { records: 24, money: 12_000, lateRecords: 0, refunds: 0 },
        recentRecords: 2,
        lastOccurredAt: ago(last),
        lastCreatedAt: ago(last),
      });
    expect(normalGap(slow(70), now, dayStart)).toBe(20 * MIN);
    expect(stateOf(slow(70))).toBe("live");
    expect(stateOf(slow(81))).toBe("quiet");
  });

  it("a terminal with one sale a day takes its rhythm from the day, and is not quiet hours later", () => {
    const once = activity({
      today: { records: 1, money: 500, lateRecords: 0, refunds: 0 },
      recentRecords: 0,
      lastOccurredAt: ago(7 * 60),
      lastCreatedAt: ago(7 * 60),
    });
    expect(normalGap(once, now, dayStart)).toBe(8 * 60 * MIN);
    expect(stateOf(once)).toBe("live");
  });

  it("in the first minutes of a day, a terminal with no record yet today is idle, not quiet", () => {
    const start = ago(3);
    const yesterday = activity({
      today: null,
      recentRecords: 0,
      lastOccurredAt: ago(14 * 60),
      lastCreatedAt: ago(14 * 60),
    });
    expect(stateOf(yesterday, start)).toBe("idle");
    // its first sale of the day three minutes in: its rhythm is one per three minutes, live.
    const first = activity({
      today: { records: 1, money: 500, lateRecords: 0, refunds: 0 },
      recentRecords: 1,
      lastOccurredAt: ago(0.5),
      lastCreatedAt: ago(0.5),
    });
    expect(normalGap(first, now, start)).toBe(3 * MIN);
    expect(stateOf(first, start)).toBe("live");
  });

  it("a terminal whose records arrive more than 10 minutes after they happened is offline, syncing late", () => {
    const late = activity({ lastOccurredAt: ago(25), lastCreatedAt: ago(1) });
    expect(stateOf(late)).toBe("late");
    // once it has sent nothing for longer than the threshold, it is simply quiet
    expect(stateOf(activity({ lastOccurredAt: ago(40), lastCreatedAt: ago(15) }))).toBe("quiet");
  });

  it("a burst of late records with the terminal live again is back, with what it moved per night", () => {
    const back = activity({
      lastOccurredAt: ago(0.2),
      lastCreatedAt: ago(0.2),
      lateArrivals: [
        { day_id: "day_1", records: 3, money: 1500 },
        { day_id: "day_2", records: 40, money: 21_000 },
      ],
    });
    const verdict = terminalState(back, now, dayStart, DEFAULT_ATTENTION);
    expect(verdict.state).toBe("back");
    expect(verdict.burst).toEqual(back.lateArrivals);
    // silent again for longer than its rhythm allows, within the half hour: quiet, the burst kept
    const silentAgain = terminalState(
      { ...back, lastOccurredAt: ago(12), lastCreatedAt: ago(12) },
      now,
      dayStart,
      DEFAULT_ATTENTION,
    );
    expect(silentAgain.state).toBe("quiet");
    expect(silentAgain.burst).toEqual(back.lateArrivals);
  });

  it("across a daylight-saving night, silence is measured in real minutes, not local clock hours", () => {
    // 2026-10-25, Europe/Madrid: 03:00 local becomes 02:00. 00:59 UTC → 01:09 UTC is ten real minutes
    // even though the local clock shows 02:59 → 02:09.
    const dst = new Date("2026-10-25T01:09:30Z");
    const a = activity({
      lastOccurredAt: new Date("2026-10-25T00:59:00Z"),
      lastCreatedAt: new Date("2026-10-25T00:59:00Z"),
    });
    expect(terminalState(a, dst, new Date("2026-10-24T10:00:00Z"), DEFAULT_ATTENTION).state).toBe("quiet");
    expect(
      terminalState(a, new Date("2026-10-25T01:08:30Z"), new Date("2026-10-24T10:00:00Z"), DEFAULT_ATTENTION)
        .state,
    ).toBe("live");
  });
});

describe("stations from device ids", () => {
  it("reads the prefix", () => {
    expect(
      ["bar-01", "food-3", "merch-01", "topup-02", "refund-01", "gate-05", "kiosk-1"].map(stationOf),
    ).toEqual(["bar", "food", "merch", "topup", "topup", "gate", "other"]);
  });
});
