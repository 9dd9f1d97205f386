import type { SalesSummary, Topup, Transaction } from "../../lib/contract/resources";

/**
 * The sales summary a reconciling client recomputes from the paginated lists. Free of test-runner
 * imports so that scripts (bench/simulator-soak) use the same model as the tests.
 */

/** The parts of a summary that are data (not the generation instant), arrays in a canonical order. */
export type SummaryData = Omit<SalesSummary, "object" | "generated_at" | "currency" | "day_id">;

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

export function canonicalSummary(s: SalesSummary | SummaryData): SummaryData {
  const flow = (f: SalesSummary["topups"]) => ({
    count: f.count,
    amount: f.amount,
    by_payment_method: [...f.by_payment_method].sort(byKey((x) => x.payment_method)),
  });
  return {
    sales: {
      count: s.sales.count,
      total: s.sales.total,
      total_base: s.sales.total_base,
      total_tax: s.sales.total_tax,
    },
    by_payment_method: [...s.by_payment_method].sort(byKey((x) => x.payment_method)),
    by_tax: [...s.by_tax].sort(byKey((x) => `${x.tax_type}\u0000${x.rate.toFixed(6).padStart(20, "0")}`)),
    by_product: [...s.by_product].sort(byKey((x) => x.product_id)),
    topups: flow(s.topups),
    withdrawals: flow(s.withdrawals),
    bonuses: { count: s.bonuses.count, amount: s.bonuses.amount },
  };
}

/**
 * The sales summary a client computes from the paginated lists: completed records only; sales
 * totals, per payment method, per (tax_type, rate), per product (Σ quantity, Σ charged_amount);
 * top-ups and withdrawals per payment method; bonuses = completed top-ups of nature `bonus`.
 */
export function summaryFromLists(sales: Transaction[], topups: Topup[]): SummaryData {
  const done = sales.filter((s) => s.status === "completed");
  const byMethod = new Map<string, { payment_method: string; count: number; total: number }>();
  const byTax = new Map<string, { tax_type: string; rate: number; base: number; amount: number }>();
  const byProduct = new Map<string, { product_id: string; name: string; quantity: number; total: number }>();
  const sum = { count: 0, total: 0, total_base: 0, total_tax: 0 };
  for (const s of done) {
    sum.count++;
    sum.total += s.total;
    sum.total_base += s.total_base;
    sum.total_tax += s.total_tax;
    const m = byMethod.get(s.payment_method) ?? { payment_method: s.payment_method, count: 0, total: 0 };
    m.count++;
    m.total += s.total;
    byMethod.set(s.payment_method, m);
    for (const t of s.tax_breakdown) {
      const k = `${t.tax_type}\u0000${t.rate}`;
      const line = byTax.get(k) ?? { tax_type: t.tax_type, rate: t.rate, base: 0, amount: 0 };
      line.base += t.base;
      line.amount += t.amount;
      byTax.set(k, line);
    }
    for (const i of s.items) {
      const p = byProduct.get(i.product_id) ?? {
        product_id: i.product_id,
        name: i.name,
        quantity: 0,
        total: 0,
      };
      if (i.name < p.name) p.name = i.name;
      p.quantity += i.quantity;
      p.total += i.charged_amount;
      byProduct.set(i.product_id, p);
    }
  }
  const flow = (direction: "topup" | "withdraw") => {
    const lines = new Map<string, { payment_method: string; count: number; amount: number }>();
    let count = 0;
    let amount = 0;
    for (const t of topups) {
      if (t.status !== "completed" || t.direction !== direction) continue;
      count++;
      amount += t.amount;
      const l = lines.get(t.payment_method) ?? { payment_method: t.payment_method, count: 0, amount: 0 };
      l.count++;
      l.amount += t.amount;
      lines.set(t.payment_method, l);
    }
    return { count, amount, by_payment_method: [...lines.values()] };
  };
  const bonuses = topups.filter((t) => t.status === "completed" && t.nature === "bonus");
  return canonicalSummary({
    sales: sum,
    by_payment_method: [...byMethod.values()],
    by_tax: [...byTax.values()],
    by_product: [...byProduct.values()],
    topups: flow("topup"),
    withdrawals: flow("withdraw"),
    bonuses: { count: bonuses.length, amount: bonuses.reduce((a, t) => a + t.amount, 0) },
  });
}
