import type { Db } from "./db";
import { Params, type Visibility } from "./sql";

export interface SummaryRows {
  sales: { count: number; total: number; total_base: number; total_tax: number };
  byPaymentMethod: { payment_method: string; count: number; total: number }[];
  byTax: { tax_type: string; rate: number; base: number; amount: number }[];
  byProduct: { product_id: string; name: string; quantity: number; total: number }[];
  flows: { direction: "topup" | "withdraw"; payment_method: string; count: number; amount: number }[];
  bonuses: { count: number; amount: number };
}

/**
 * SQL condition on a kept summary row aliased `r` (migration 002_summary.sql): the same scope as
 * recordVisible (store/sql.ts) — the record's day, and the type and valid days of its wristband's
 * ticket ('' for an anonymous wristband, out of scope for a key restricted by ticket type).
 */
function summaryVisible(p: Params, v: Visibility, r = "r"): string {
  const parts: string[] = [];
  if (v.dayIds) parts.push(`${r}.day_id = any(${p.add(v.dayIds)}::text[])`);
  if (v.ticketTypeIds) {
    parts.push(`${r}.ticket_type_id = any(${p.add(v.ticketTypeIds)}::text[])`);
    if (v.dayIds) parts.push(`${r}.ticket_day_ids && ${p.add(v.dayIds)}::text[]`);
  }
  return parts.length ? `(${parts.join(" and ")})` : "true";
}

/**
 * A JSON array of the rows of `from`, sorted, with these keys in this order (a column, or a key and
 * its expression); [] when there is none.
 */
const jsonRows = (columns: (string | [string, string])[], orderBy: string, from: string) =>
  `(select coalesce(json_agg(json_build_object(${columns
    .map((c) => (typeof c === "string" ? `'${c}', ${c}` : `'${c[0]}', ${c[1]}`))
    .join(", ")}) order by ${orderBy}), '[]'::json) from (${from}) x)`;

/**
 * Aggregates of completed records for the sales summary, read from the tables the writes keep
 * (a few hundred rows, whatever the number of sales): the sums over the key's scopes of the day,
 * or of every day. One statement, so one snapshot and one round trip; equal to a scan of the
 * records (testing/summary-scan.ts), keys in the same order.
 */
export async function salesSummaryRows(db: Db, v: Visibility, dayId: string | null): Promise<SummaryRows> {
  const p = new Params();
  const conditions = [summaryVisible(p, v)];
  if (dayId) conditions.push(`r.day_id = ${p.add(dayId)}`);
  const where = conditions.join(" and ");
  const num = (sql: string) => `coalesce(${sql}, 0)::float8`;

  const [{ rows }] = await db.query<{ rows: SummaryRows }>(
    `select json_build_object(
       'sales', (select json_build_object('count', ${num("sum(count)")}::int, 'total', ${num("sum(total)")},
           'total_base', ${num("sum(total_base)")}, 'total_tax', ${num("sum(total_tax)")})
         from summary_sales r where ${where}),
       'byPaymentMethod', ${jsonRows(
         ["payment_method", "count", "total"],
         "payment_method",
         `select payment_method, sum(count)::int as count, ${num("sum(total)")} as total
          from summary_payment r where ${where} group by payment_method`,
       )},
       'byTax', ${jsonRows(
         ["tax_type", ["rate", "rate::float8"], "base", "amount"],
         "tax_type, rate",
         `select tax_type, rate, ${num("sum(base)")} as base, ${num("sum(amount)")} as amount
          from summary_tax r where ${where} group by tax_type, rate`,
       )},
       'byProduct', ${jsonRows(
         ["product_id", "name", "quantity", "total"],
         "product_id",
         `select product_id, min(name) as name, ${num("sum(quantity)")} as quantity, ${num("sum(total)")} as total
          from summary_product r where ${where} group by product_id`,
       )},
       'flows', ${jsonRows(
         ["direction", "payment_method", "count", "amount"],
         "direction, payment_method",
         `select direction, payment_method, sum(count)::int as count, ${num("sum(amount)")} as amount
          from summary_flows r where ${where} group by direction, payment_method`,
       )},
       'bonuses', (select json_build_object('count', ${num("sum(count)")}::int, 'amount', ${num("sum(amount)")})
         from summary_flows r where ${where} and nature = 'bonus' and direction = 'topup')
     ) as rows`,
    p.values,
  );
  return rows;
}
