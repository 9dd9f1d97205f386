/** Top-up bonus rules, as decided: the best tier of the currently valid rules, limited by a per-person cap. */

export interface BonusTier {
  min_amount: number;
  bonus_amount: number;
}

export interface BonusRule {
  id: string;
  name: string;
  valid_from: Date;
  valid_until: Date;
  tiers: BonusTier[];
}

export interface QuoteLine {
  amount: number;
  bonus_amount: number;
  rule: { id: string; name: string } | null;
  next: { amount: number; bonus_amount: number } | null;
}

export function validRules(rules: BonusRule[], at: Date): BonusRule[] {
  return rules.filter((r) => r.valid_from <= at && at < r.valid_until);
}

/** The largest gift any valid rule gives for `amount`, before the cap (ties: the lower rule id). */
export function bestTier(rules: BonusRule[], amount: number): { rule: BonusRule; bonus: number } | null {
  let best: { rule: BonusRule; bonus: number } | null = null;
  for (const rule of [...rules].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    for (const tier of rule.tiers) {
      if (tier.min_amount <= amount && tier.bonus_amount > 0 && (!best || tier.bonus_amount > best.bonus)) {
        best = { rule, bonus: tier.bonus_amount };
      }
    }
  }
  return best;
}

/** A rule's best gift: what one pending top-up under it may still deliver. */
export function ruleBestGift(rule: BonusRule): number {
  return Math.max(0, ...rule.tiers.map((t) => t.bonus_amount));
}

/**
 * What is left of a person's cap after bonuses already granted and those promised by pending
 * top-ups (each pending rule id counts that rule's best gift, in order, never below zero).
 */
export function remainingCap(cap: number, granted: number, pendingRules: BonusRule[]): number {
  let remaining = Math.max(0, cap - granted);
  for (const rule of pendingRules) remaining = Math.max(0, remaining - ruleBestGift(rule));
  return remaining;
}

function giftFor(rules: BonusRule[], amount: number, cap: number | null) {
  const best = bestTier(rules, amount);
  if (!best) return { bonus: 0, rule: null };
  const bonus = cap === null ? best.bonus : Math.min(best.bonus, cap);
  return bonus > 0 ? { bonus, rule: best.rule } : { bonus: 0, rule: null };
}

/**
 * The quote for one amount. `cap` is the remaining cap for the person, or null when the quote
 * ignores it (no code given). `next` is the smallest tier above the amount that gives more.
 */
export function quoteLine(rules: BonusRule[], amount: number, cap: number | null): QuoteLine {
  const current = giftFor(rules, amount, cap);
  const thresholds = [...new Set(rules.flatMap((r) => r.tiers.map((t) => t.min_amount)))]
    .filter((min) => min > amount)
    .sort((a, b) => a - b);
  let next: QuoteLine["next"] = null;
  for (const threshold of thresholds) {
    const gift = giftFor(rules, threshold, cap);
    if (gift.bonus > current.bonus) {
      next = { amount: threshold, bonus_amount: gift.bonus };
      break;
    }
  }
  return {
    amount,
    bonus_amount: current.bonus,
    rule: current.rule ? { id: current.rule.id, name: current.rule.name } : null,
    next,
  };
}
