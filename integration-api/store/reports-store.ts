import type { Db } from "./db";
import { Params, recordVisible, type Visibility } from "./sql";

export interface SummaryRows {
  sales: { count: number; total: number; total_base: number; total_tax: number };
  byPaymentMethod: { payment_method: string; count: number; total: number }[];
  byTax: { tax_type: string; rate: number; base: number; amount: number }[];
  byProduct: { product_id: string; name: string; quantity: number; total: number }[];
  flows: { direction: "topup" | "withdraw"; payment_method: string; count: number; amount: number }[];
  bonuses: { count: number; amount: number };
}

/**
 * Aggregates of completed records for the sales summary. Computed from the same rows and the same
 * scope rules as the lists, in one snapshot, so the summary equals the sums of the lists.
 */
export async function salesSummaryRows(db: Db, v: Visibility, dayId: string | null): Promise<SummaryRows> {
  const p = new Params();
  const conditions = [`r.status = 'completed'`, recordVisible(p, v)];
  if (dayId) conditions.push(`r.day_id = ${p.add(dayId)}`);
  const where = conditions.join(" and ");
  const sales = `select r.* from sales r where ${where}`;
  const topups = `select r.* from topups r where ${where}`;
  const num = (sql: string) => `coalesce(${sql}, 0)::float8`;

  return db.transaction(async (tx) => {
    await tx.query("set transaction isolation level repeatable read");
    const [totals] = await tx.query<SummaryRows["sales"]>(
      `select count(*)::int as count, ${num("sum(total)")} as total, ${num("sum(total_base)")} as total_base,
         ${num("sum(total_tax)")} as total_tax from (${sales}) s`,
      p.values,
    );
    const byPaymentMethod = await tx.query<SummaryRows["byPaymentMethod"][number]>(
      `select payment_method, count(*)::int as count, ${num("sum(total)")} as total
       from (${sales}) s group by payment_method order by payment_method`,
      p.values,
    );
    const byTax = await tx.query<SummaryRows["byTax"][number]>(
      `select x.tax_type, x.rate::float8 as rate, ${num("sum(x.base)")} as base, ${num("sum(x.amount)")} as amount
       from (${sales}) s, jsonb_to_recordset(s.tax_breakdown) as x(tax_type text, rate numeric, base int, amount int)
       group by x.tax_type, x.rate order by x.tax_type, x.rate`,
      p.values,
    );
    const byProduct = await tx.query<SummaryRows["byProduct"][number]>(
      `select i.product_id, min(i.name) as name, ${num("sum(i.quantity)")} as quantity,
         ${num("sum(i.charged_amount)")} as total
       from (${sales}) s, jsonb_to_recordset(s.items) as i(product_id text, name text, quantity int, charged_amount int)
       group by i.product_id order by i.product_id`,
      p.values,
    );
    const flows = await tx.query<SummaryRows["flows"][number]>(
      `select direction, payment_method, count(*)::int as count, ${num("sum(amount)")} as amount
       from (${topups}) t group by direction, payment_method order by direction, payment_method`,
      p.values,
    );
    const [bonuses] = await tx.query<SummaryRows["bonuses"]>(
      `select count(*)::int as count, ${num("sum(amount)")} as amount from (${topups}) t
       where nature = 'bonus' and direction = 'topup'`,
      p.values,
    );
    return { sales: totals, byPaymentMethod, byTax, byProduct, flows, bonuses };
  });
}
