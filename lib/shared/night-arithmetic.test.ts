import { describe, expect, it } from "vitest";
import type { NightFigures } from "@/lib/shared/api/night";
import { countedLines, driftOf, expectedByDesk } from "./night-arithmetic";

describe("expected money per desk", () => {
  it("is cash top-ups − cash withdrawals + cash sales per device, returns reducing it", () => {
    const lines = expectedByDesk({
      topups: [
        { device_id: "desk_1", payment_method: "cash", amount: 5000 },
        { device_id: "desk_1", payment_method: "cash", amount: 2000 },
        { device_id: "desk_1", payment_method: "card", amount: 3000 },
        { device_id: "desk_1", payment_method: "promo", amount: 999 },
        { device_id: "desk_1", payment_method: "online", amount: 700 },
      ],
      withdrawals: [{ device_id: "desk_1", payment_method: "cash", amount: 1500 }],
      sales: [
        { device_id: "bar_1", payment_method: "cash", amount: 1200 },
        { device_id: "bar_1", payment_method: "cash", amount: -200 },
        { device_id: "bar_1", payment_method: "wristband", amount: 10_000 },
        { device_id: null, payment_method: "cash", amount: 300 },
      ],
    });
    expect(lines).toEqual([
      {
        device_id: "",
        payment_method: "cash",
        float: 0,
        topups: 0,
        withdrawals: 0,
        sales: 300,
        expected: 300,
      },
      {
        device_id: "bar_1",
        payment_method: "cash",
        float: 0,
        topups: 0,
        withdrawals: 0,
        sales: 1000,
        expected: 1000,
      },
      {
        device_id: "desk_1",
        payment_method: "card",
        float: 0,
        topups: 3000,
        withdrawals: 0,
        sales: 0,
        expected: 3000,
      },
      {
        device_id: "desk_1",
        payment_method: "cash",
        float: 0,
        topups: 7000,
        withdrawals: 1500,
        sales: 0,
        expected: 5500,
      },
    ]);
  });

  it("can go negative (a refund desk pays out more than it took)", () => {
    const [line] = expectedByDesk({
      topups: [],
      withdrawals: [{ device_id: "refund_1", payment_method: "cash", amount: 4200 }],
      sales: [],
    });
    expect(line).toMatchObject({ device_id: "refund_1", expected: -4200 });
  });

  it("is empty without records", () => {
    expect(expectedByDesk({ topups: [], withdrawals: [], sales: [] })).toEqual([]);
  });

  it("variance = counted − expected; an unexpected desk expects 0", () => {
    const expected = expectedByDesk({
      topups: [{ device_id: "desk_1", payment_method: "cash", amount: 5000 }],
      withdrawals: [],
      sales: [],
    });
    expect(
      countedLines(expected, [
        { device_id: "desk_1", payment_method: "cash", counted: 4900 },
        { device_id: "desk_9", payment_method: "cash", counted: 100 },
      ]),
    ).toEqual([
      { device_id: "desk_1", payment_method: "cash", counted: 4900, expected: 5000, variance: -100 },
      { device_id: "desk_9", payment_method: "cash", counted: 100, expected: 0, variance: 100 },
    ]);
  });
});

const figures = (over: Partial<NightFigures> = {}): NightFigures => ({
  day_id: "day_1",
  sales: { count: 10, total: 5000, total_base: 4132, total_tax: 868 },
  sales_by_payment_method: [{ payment_method: "cash", count: 10, total: 5000 }],
  sales_by_device: [{ device_id: "bar_1", count: 10, total: 5000 }],
  sales_by_tax: [{ tax_type: "VAT", rate: 21, base: 4132, tax: 868 }],
  topups: { count: 1, amount: 2000 },
  topups_by_payment_method: [{ payment_method: "cash", count: 1, amount: 2000 }],
  withdrawals: { count: 0, amount: 0 },
  withdrawals_by_payment_method: [],
  bonuses: { count: 0, amount: 0 },
  transfers: { count: 0, amount: 0 },
  expected: [
    {
      device_id: "bar_1",
      payment_method: "cash",
      float: 0,
      topups: 0,
      withdrawals: 0,
      sales: 5000,
      expected: 5000,
    },
  ],
  ...over,
});

describe("drift since a sign-off", () => {
  it("is null when nothing changed", () => {
    expect(driftOf("1", figures(), figures())).toBeNull();
  });

  it("lists the lines that moved, new lines included", () => {
    const after = figures({
      sales: { count: 12, total: 5600, total_base: 4628, total_tax: 972 },
      sales_by_payment_method: [{ payment_method: "cash", count: 12, total: 5600 }],
      sales_by_device: [
        { device_id: "bar_1", count: 10, total: 5000 },
        { device_id: "bar_late", count: 2, total: 600 },
      ],
      sales_by_tax: [{ tax_type: "VAT", rate: 21, base: 4628, tax: 972 }],
      expected: [
        {
          device_id: "bar_1",
          payment_method: "cash",
          float: 0,
          topups: 0,
          withdrawals: 0,
          sales: 5000,
          expected: 5000,
        },
        {
          device_id: "bar_late",
          payment_method: "cash",
          float: 0,
          topups: 0,
          withdrawals: 0,
          sales: 600,
          expected: 600,
        },
      ],
    });
    const drift = driftOf("7", figures(), after)!;
    expect(drift).toMatchObject({ signoff_id: "7", sales_count: 2, sales_total: 600 });
    const byKey = Object.fromEntries(drift.lines.map((l) => [l.key, [l.before, l.after, l.delta]]));
    expect(byKey).toEqual({
      "sales.count": [10, 12, 2],
      "sales.total": [5000, 5600, 600],
      "sales.base": [4132, 4628, 496],
      "sales.tax": [868, 972, 104],
      "sales.method.cash": [5000, 5600, 600],
      "sales.device.bar_late": [0, 600, 600],
      "sales.tax.VAT.21": [4132, 4628, 496],
      "expected.bar_late.cash": [0, 600, 600],
    });
  });
});
