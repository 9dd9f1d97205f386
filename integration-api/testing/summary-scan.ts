import type { Db } from "../store/db";
import type { SummaryRows } from "../store/reports-store";
import { Params, recordVisible, type Visibility } from "../store/sql";

/**
 * The sales summary's aggregates by a full scan of the completed records, with the same scope rules
 * as the lists, in one snapshot: what GET /reports/sales-summary computed before the service kept
 * them (store/migrations/002_summary.sql). The oracle the kept tables are compared with, and the
 * "old scan" time of bench/sales-summary.ts.
 */
export async function scanSummaryRows(db: Db, v: Visibility, dayId: string | null): Promise<SummaryRows> {
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
