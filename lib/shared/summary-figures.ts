import type { SalesSummary } from "@/lib/contract";
import type { NightFigures } from "@/lib/shared/api/night";
import type { FlowTotals, SalesDayReport, SalesTotals, TopupsDayReport } from "@/lib/shared/api/sales";

/**
 * A day's figures taken from the upstream's sales summary, in the shapes the screens use, for a day
 * whose mirror is incomplete or differs from it (which day that is: `figureSource`, sync/progress.ts).
 */

export const salesTotalsOf = (s: SalesSummary): SalesTotals => ({ ...s.sales });

/** The top-ups the summary counts by payment method: promo credit is `promo`, transfers `transfer`. */
function topupsPaidWith(s: SalesSummary, keep: (method: string) => boolean) {
  const of = s.topups.by_payment_method.filter((m) => keep(m.payment_method));
  return { count: of.reduce((n, m) => n + m.count, 0), amount: of.reduce((n, m) => n + m.amount, 0) };
}

export const flowTotalsOf = (s: SalesSummary): FlowTotals => ({
  topups: { count: s.topups.count, amount: s.topups.amount },
  paid: topupsPaidWith(s, (m) => m !== "promo" && m !== "transfer"),
  promo: topupsPaidWith(s, (m) => m === "promo"),
  withdrawals: { count: s.withdrawals.count, amount: s.withdrawals.amount },
  bonus: { count: s.bonuses.count, amount: s.bonuses.amount },
});

export function salesBreakdownsOf(
  s: SalesSummary,
): Pick<SalesDayReport, "by_product" | "by_payment_method" | "by_tax"> {
  return {
    by_product: [...s.by_product].sort(
      (a, b) => b.total - a.total || a.product_id.localeCompare(b.product_id),
    ),
    by_payment_method: [...s.by_payment_method].sort(
      (a, b) => b.total - a.total || a.payment_method.localeCompare(b.payment_method),
    ),
    by_tax: s.by_tax
      .map((t) => ({ tax_type: t.tax_type, rate: t.rate, base: t.base, tax: t.amount }))
      .sort((a, b) => a.tax_type.localeCompare(b.tax_type) || a.rate - b.rate),
  };
}

export function topupMethodsOf(s: SalesSummary): TopupsDayReport["by_payment_method"] {
  const rows = new Map<string, TopupsDayReport["by_payment_method"][number]>();
  const row = (payment_method: string) =>
    rows.get(payment_method) ?? { payment_method, topups: 0, withdrawals: 0, count: 0 };
  for (const [flow, side] of [
    [s.topups, "topups"],
    [s.withdrawals, "withdrawals"],
  ] as const)
    for (const m of flow.by_payment_method) {
      const r = row(m.payment_method);
      r[side] += m.amount;
      r.count += m.count;
      rows.set(m.payment_method, r);
    }
  return [...rows.values()].sort((a, b) => a.payment_method.localeCompare(b.payment_method));
}

/**
 * The night's figures with every total and breakdown the summary holds taken from it; what needs the
 * records (terminals, expected money per desk, transfers) stays the mirror's.
 */
export function nightFiguresOf(mirror: NightFigures, s: SalesSummary): NightFigures {
  const flow = (f: SalesSummary["topups"]) => ({ count: f.count, amount: f.amount });
  const methods = (f: SalesSummary["topups"]) =>
    [...f.by_payment_method].sort((a, b) => a.payment_method.localeCompare(b.payment_method));
  const { by_payment_method, by_tax } = salesBreakdownsOf(s);
  return {
    ...mirror,
    sales: salesTotalsOf(s),
    sales_by_payment_method: [...by_payment_method].sort((a, b) =>
      a.payment_method.localeCompare(b.payment_method),
    ),
    sales_by_tax: by_tax,
    topups: flow(s.topups),
    topups_by_payment_method: methods(s.topups),
    withdrawals: flow(s.withdrawals),
    withdrawals_by_payment_method: methods(s.withdrawals),
    bonuses: { count: s.bonuses.count, amount: s.bonuses.amount },
  };
}
