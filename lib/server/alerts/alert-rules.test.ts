import { describe, expect, it } from "vitest";
import { DEFAULT_ATTENTION } from "../terminals";
import {
  type AttentionFacts,
  alertChanges,
  alertConditions,
  isRefundSpike,
  normalRefunds,
} from "./alert-rules";

const MIN = 60_000;
const now = new Date("2026-07-11T20:00:00Z");
const ago = (minutes: number) => new Date(now.getTime() - minutes * MIN).toISOString();

function facts(over: Partial<AttentionFacts> = {}): AttentionFacts {
  return {
    now,
    trading: true,
    terminals: [],
    signedNights: [],
    mismatchedNights: [],
    sync: {
      intervalMs: 30_000,
      heartbeatAt: ago(0.1),
      pausedUntil: null,
      resources: [{ resource: "sales", lastSuccessAt: ago(0.1), failing: false }],
    },
    refunds: [],
    negative: { wristbands: 0, lowest: null },
    review: { count: 0, oldest: null },
    ...over,
  };
}

const kinds = (f: AttentionFacts) =>
  alertConditions(f, DEFAULT_ATTENTION).map((c) => `${c.kind}:${c.subject}`);

describe("alert rules", () => {
  it("nothing wrong, no alert", () => {
    expect(kinds(facts())).toEqual([]);
  });

  it("a terminal quiet for more than 15 minutes during opening hours; not at 12, not after close", () => {
    const quiet = (minutes: number) => ({
      device_id: "bar-02",
      state: "quiet" as const,
      last_occurred_at: ago(minutes),
      last_created_at: ago(minutes),
      burst: [],
    });
    expect(kinds(facts({ terminals: [quiet(12)] }))).toEqual([]);
    const [alert] = alertConditions(facts({ terminals: [quiet(16)] }), DEFAULT_ATTENTION);
    expect(alert).toMatchObject({
      kind: "terminal_quiet",
      subject: "bar-02",
      figures: { silent_minutes: 16 },
      link: "/terminals/bar-02",
    });
    expect(kinds(facts({ trading: false, terminals: [quiet(60)] }))).toEqual([]);
  });

  it("a terminal syncing late raises its alert at once, with how far behind it is", () => {
    const [alert] = alertConditions(
      facts({
        terminals: [
          {
            device_id: "food-01",
            state: "late",
            last_occurred_at: ago(31),
            last_created_at: ago(1),
            burst: [],
          },
        ],
      }),
      DEFAULT_ATTENTION,
    );
    expect(alert).toMatchObject({ kind: "terminal_late", figures: { behind_minutes: 30 } });
  });

  it("a signed-off night that late records moved names the amount", () => {
    const night = {
      day_id: "day_1",
      signed_at: ago(120),
      signed: { total: 100_000, count: 200, topups: 50_000, withdrawals: 1000 },
      now: { total: 100_000, count: 200, topups: 50_000, withdrawals: 1000 },
      lateDevices: 0,
    };
    expect(kinds(facts({ signedNights: [night] }))).toEqual([]);
    const [alert] = alertConditions(
      facts({
        signedNights: [{ ...night, now: { ...night.now, total: 102_350, count: 203 }, lateDevices: 1 }],
      }),
      DEFAULT_ATTENTION,
    );
    expect(alert).toMatchObject({
      kind: "signed_night_moved",
      severity: "critical",
      figures: { sales_delta: 2350, count_delta: 3, terminals: 1 },
      link: "/reconciliation?day_id=day_1",
    });
  });

  it("a closed night that differs from the upstream summary", () => {
    expect(
      kinds(facts({ mismatchedNights: [{ day_id: "day_2", upstream_total: 10, mirror_total: 9 }] })),
    ).toEqual(["night_mismatch:day_2"]);
  });

  it("sync stalled after three silent intervals; failing or paused on the quota for more than two cycles", () => {
    const sync = (over: Partial<AttentionFacts["sync"]>) => facts({ sync: { ...facts().sync, ...over } });
    expect(kinds(sync({ heartbeatAt: ago(1) }))).toEqual([]);
    expect(kinds(sync({ heartbeatAt: ago(2) }))).toEqual(["sync_stalled:worker"]);
    expect(
      kinds(sync({ resources: [{ resource: "sales", lastSuccessAt: ago(0.9), failing: true }] })),
    ).toEqual([]);
    expect(
      kinds(sync({ resources: [{ resource: "sales", lastSuccessAt: ago(1.5), failing: true }] })),
    ).toEqual(["sync_failing:sales"]);
    expect(
      kinds(
        sync({
          pausedUntil: new Date(now.getTime() + 20_000).toISOString(),
          resources: [{ resource: "sales", lastSuccessAt: ago(1.5), failing: false }],
        }),
      ),
    ).toEqual(["sync_quota:read"]);
  });

  it("refunds above three times the day's normal rate over 15 minutes, at one terminal and overall", () => {
    // 16 refunds over 4 hours before: 1 per 15 minutes. 3 in the window: below the minimum of 5.
    const base = { subject: "refund-01", before: 16, beforeMs: 4 * 60 * MIN, earlier: 0, earlierMs: 0 };
    expect(isRefundSpike({ ...base, window: 3 })).toBe(false);
    expect(isRefundSpike({ ...base, before: 160, window: 12 })).toBe(false); // 10 per window normally
    expect(isRefundSpike({ ...base, window: 6 })).toBe(true);
    const [alert] = alertConditions(facts({ refunds: [{ ...base, window: 6 }] }), DEFAULT_ATTENTION);
    expect(alert).toMatchObject({
      kind: "refund_spike",
      figures: { refunds_15_min: 6, normal_15_min: 1, normal_from: "today" },
    });
  });

  it("in the first hour of a day, refunds are compared with the earlier days' rate", () => {
    // Two earlier nights of 18 hours with 432 refunds: 3 per 15 minutes.
    const earlier = { earlier: 432, earlierMs: 2 * 18 * 60 * MIN };
    const opening = { subject: "*", before: 0, beforeMs: 0, ...earlier };
    expect(normalRefunds({ ...opening, window: 9 })).toEqual({ per15Min: 3, from: "earlier_days" });
    expect(isRefundSpike({ ...opening, window: 9 })).toBe(false); // the opening rush at the usual pace
    expect(isRefundSpike({ ...opening, window: 10 })).toBe(true);
    // Forty minutes in, still the earlier days; an hour in, the day's own rate.
    expect(normalRefunds({ ...opening, before: 1, beforeMs: 40 * MIN, window: 9 }).from).toBe("earlier_days");
    expect(normalRefunds({ ...opening, before: 8, beforeMs: 60 * MIN, window: 9 })).toEqual({
      per15Min: 2,
      from: "today",
    });
    const [alert] = alertConditions(facts({ refunds: [{ ...opening, window: 12 }] }), DEFAULT_ATTENTION);
    expect(alert).toMatchObject({ figures: { normal_15_min: 3, normal_from: "earlier_days" } });
    // The first minutes of the first day: no rate known, a burst of five is a spike.
    expect(isRefundSpike({ ...opening, earlier: 0, earlierMs: 0, window: 5 })).toBe(true);
    expect(isRefundSpike({ ...opening, earlier: 0, earlierMs: 0, window: 4 })).toBe(false);
  });

  it("wristbands seen below zero in the last hour, with the lowest balance", () => {
    const [alert] = alertConditions(facts({ negative: { wristbands: 3, lowest: -1250 } }), DEFAULT_ATTENTION);
    expect(alert).toMatchObject({ kind: "negative_balance", figures: { wristbands: 3, lowest: -1250 } });
  });

  it("a review pair waiting more than an hour", () => {
    expect(kinds(facts({ review: { count: 2, oldest: ago(75) } }))).toEqual(["review_waiting:queue"]);
  });
});

describe("alert lifecycle", () => {
  const c = (kind: "terminal_quiet" | "refund_spike", subject: string) => ({
    kind,
    subject,
    severity: "warning" as const,
    figures: {},
    link: "/",
  });

  it("opens new conditions, continues the open ones, resolves those that ended", () => {
    const open = [
      { id: "1", kind: "terminal_quiet" as const, subject: "bar-01" },
      { id: "2", kind: "refund_spike" as const, subject: "*" },
    ];
    const changes = alertChanges(open, [c("terminal_quiet", "bar-01"), c("terminal_quiet", "bar-02")]);
    expect(changes.opened.map((x) => x.subject)).toEqual(["bar-02"]);
    expect(changes.continued.map((x) => x.id)).toEqual(["1"]);
    expect(changes.resolved).toEqual(["2"]);
  });
});
