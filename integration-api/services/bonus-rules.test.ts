import { describe, expect, it } from "vitest";
import { type BonusRule, bestTier, quoteLine, remainingCap, validRules } from "./bonus-rules";

const at = new Date("2026-07-10T20:00:00Z");
const rule = (
  id: string,
  tiers: [number, number][],
  from = "2026-07-01",
  until = "2026-08-01",
): BonusRule => ({
  id: id.padStart(24, "0"),
  name: `rule ${id}`,
  valid_from: new Date(from),
  valid_until: new Date(until),
  tiers: tiers.map(([min_amount, bonus_amount]) => ({ min_amount, bonus_amount })),
});

const welcome = rule("a", [
  [2000, 100],
  [5000, 400],
  [10000, 1000],
]);
const happyHour = rule("b", [[5000, 600]], "2026-07-10T19:00:00Z", "2026-07-10T21:00:00Z");
const expired = rule("c", [[1000, 5000]], "2026-06-01", "2026-06-02");

describe("bonus rules", () => {
  it("keeps only rules valid at the instant (end exclusive)", () => {
    expect(validRules([welcome, happyHour, expired], at).map((r) => r.id)).toEqual([
      welcome.id,
      happyHour.id,
    ]);
    expect(validRules([happyHour], new Date("2026-07-10T21:00:00Z"))).toEqual([]);
  });

  it("picks the best tier whose minimum the amount reaches, across rules", () => {
    expect(bestTier([welcome, happyHour], 1999)).toBeNull();
    expect(bestTier([welcome, happyHour], 2000)).toEqual({ rule: welcome, bonus: 100 });
    expect(bestTier([welcome, happyHour], 5000)).toEqual({ rule: happyHour, bonus: 600 });
    expect(bestTier([welcome, happyHour], 12000)).toEqual({ rule: welcome, bonus: 1000 });
  });

  it("quotes the gift and the next tier that gives more", () => {
    expect(quoteLine([welcome], 3000, null)).toEqual({
      amount: 3000,
      bonus_amount: 100,
      rule: { id: welcome.id, name: "rule a" },
      next: { amount: 5000, bonus_amount: 400 },
    });
    expect(quoteLine([welcome], 10000, null).next).toBeNull();
    expect(quoteLine([welcome], 500, null)).toEqual({
      amount: 500,
      bonus_amount: 0,
      rule: null,
      next: { amount: 2000, bonus_amount: 100 },
    });
  });

  it("caps the gift, and a capped next tier that gives no more is not offered", () => {
    expect(quoteLine([welcome], 10000, 250)).toMatchObject({ bonus_amount: 250, next: null });
    expect(quoteLine([welcome], 3000, 250)).toMatchObject({
      bonus_amount: 100,
      next: { amount: 5000, bonus_amount: 250 },
    });
    expect(quoteLine([welcome], 3000, 0)).toMatchObject({ bonus_amount: 0, rule: null, next: null });
  });

  it("deducts granted bonuses and each pending rule's best gift from the cap, never below zero", () => {
    expect(remainingCap(2500, 0, [])).toBe(2500);
    expect(remainingCap(2500, 1000, [welcome])).toBe(500);
    expect(remainingCap(2500, 1000, [welcome, welcome])).toBe(0);
    expect(remainingCap(2500, 3000, [])).toBe(0);
  });
});
