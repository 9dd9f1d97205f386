import { describe, expect, it } from "vitest";
import { allDenominations, denominationsOf, denominationTotal, unknownDenominations } from "./denominations";
import { expectedByDesk, expectedCash } from "./night-arithmetic";
import {
  approvalRefusal,
  beyondLine,
  beyondNight,
  countTotals,
  needsApproval,
  signoffStatus,
} from "./night-close";

const TOLERANCE = { line: 500, night: 2000 };

describe("expected cash with an opening float", () => {
  it("is float + cash top-ups − cash withdrawals + cash sales", () => {
    expect(expectedCash({ float: 15_000, topups: 42_000, withdrawals: 3_500, sales: 1_250 })).toBe(54_750);
  });

  it("adds each desk's float to its cash line only; a desk with a float and no records still expects it", () => {
    const lines = expectedByDesk({
      topups: [
        { device_id: "desk-1", payment_method: "cash", amount: 5000 },
        { device_id: "desk-1", payment_method: "card", amount: 3000 },
      ],
      withdrawals: [{ device_id: "desk-1", payment_method: "cash", amount: 1000 }],
      sales: [{ device_id: "desk-1", payment_method: "cash", amount: -200 }],
      floats: [
        { device_id: "desk-1", amount: 20_000 },
        { device_id: "desk-2", amount: 10_000 },
      ],
    });
    expect(lines).toEqual([
      {
        device_id: "desk-1",
        payment_method: "card",
        float: 0,
        topups: 3000,
        withdrawals: 0,
        sales: 0,
        expected: 3000,
      },
      {
        device_id: "desk-1",
        payment_method: "cash",
        float: 20_000,
        topups: 5000,
        withdrawals: 1000,
        sales: -200,
        expected: 23_800,
      },
      {
        device_id: "desk-2",
        payment_method: "cash",
        float: 10_000,
        topups: 0,
        withdrawals: 0,
        sales: 0,
        expected: 10_000,
      },
    ]);
  });
});

describe("notes and coins", () => {
  it("the euro has notes of 500 to 5 and coins of 2 to 0.01; a currency without a table has none", () => {
    expect(denominationsOf("EUR")).toEqual({
      notes: [50000, 20000, 10000, 5000, 2000, 1000, 500],
      coins: [200, 100, 50, 20, 10, 5, 2, 1],
    });
    expect(allDenominations("eur")).toHaveLength(15);
    expect(denominationsOf("XAF")).toBeNull();
    expect(allDenominations("XAF")).toEqual([]);
  });

  it("the grid adds up: pieces × value, in minor units", () => {
    // 2 × 50 + 3 × 20 + 1 × 5 + 4 × 2 + 7 × 0.10 + 3 × 0.01 = 173.73
    expect(denominationTotal({ "5000": 2, "2000": 3, "500": 1, "200": 4, "10": 7, "1": 3 })).toBe(17_373);
    expect(denominationTotal({})).toBe(0);
    expect(denominationTotal({ "100": 0 })).toBe(0);
  });

  it("names what is not a note or coin of the currency", () => {
    expect(unknownDenominations("EUR", { "5000": 1, "300": 2, "25": 1 }).sort()).toEqual(["25", "300"]);
    expect(unknownDenominations("USD", { "25": 1 })).toEqual([]);
    expect(unknownDenominations("XAF", { "100": 1 })).toEqual(["100"]);
  });
});

describe("tolerance and approval", () => {
  it("exactly the tolerance is within; a cent more is beyond, short or over alike", () => {
    expect([beyondLine(500, TOLERANCE), beyondLine(-500, TOLERANCE)]).toEqual([false, false]);
    expect([beyondLine(501, TOLERANCE), beyondLine(-501, TOLERANCE)]).toEqual([true, true]);
    expect([beyondNight(2000, TOLERANCE), beyondNight(-2001, TOLERANCE)]).toEqual([false, true]);
  });

  it("needs approval for a line beyond its tolerance, or a night whose lines add up beyond the night's", () => {
    expect(needsApproval([], TOLERANCE)).toBe(false);
    expect(needsApproval([400, -300, 500], TOLERANCE)).toBe(false);
    expect(needsApproval([0, -600], TOLERANCE)).toBe(true);
    // five lines each 4.50 short: each within, the night 22.50 short: beyond
    expect(needsApproval([-450, -450, -450, -450, -450], TOLERANCE)).toBe(true);
    // shortages and overages cancel out over the night
    expect(needsApproval([450, -450, 450, -450], TOLERANCE)).toBe(false);
  });

  it("a sign-off is final within the tolerance or once approved; else it awaits, unless superseded", () => {
    expect(signoffStatus({ needs_approval: false, approval: null, superseded: false })).toBe("final");
    expect(signoffStatus({ needs_approval: true, approval: null, superseded: false })).toBe(
      "awaiting_approval",
    );
    expect(signoffStatus({ needs_approval: true, approval: { username: "m" }, superseded: false })).toBe(
      "final",
    );
    expect(signoffStatus({ needs_approval: true, approval: { username: "m" }, superseded: true })).toBe(
      "final",
    );
    expect(signoffStatus({ needs_approval: true, approval: null, superseded: true })).toBe("superseded");
  });

  it("approval: by someone else, of a current sign-off that awaits one", () => {
    expect(approvalRefusal({ username: "sam", status: "awaiting_approval" }, "mia")).toBeNull();
    expect(approvalRefusal({ username: "sam", status: "awaiting_approval" }, "sam")).toBe(
      "approver_is_signer",
    );
    expect(approvalRefusal({ username: "sam", status: "final" }, "mia")).toBe("approval_not_needed");
    expect(approvalRefusal({ username: "sam", status: "superseded" }, "mia")).toBe("signoff_superseded");
  });

  it("totals count the counted lines: a blank line is not a zero", () => {
    expect(
      countTotals([
        { expected: 10_000, counted: 9_800 },
        { expected: 5_000, counted: null },
        { expected: -700, counted: -700 },
      ]),
    ).toEqual({
      counted_lines: 2,
      lines: 3,
      expected: 14_300,
      expected_counted: 9_300,
      counted: 9_100,
      variance: -200,
    });
  });
});
