import type { Queryable } from "./db";

export interface LedgerDifference {
  wristband_id: string;
  nfc: string;
  balance: number;
  expected_balance: number;
  promo_balance: number;
  expected_promo_balance: number;
}

/**
 * Recomputes every wristband's balances from its completed records: `balance` from paid, withdrawn
 * and transferred money minus what sales took from it; `promo_balance` from promo records minus
 * what sales took from it. Returns the wristbands whose stored balances differ.
 */
export async function ledgerDifferences(
  db: Queryable,
  limit = 20,
): Promise<{ checked: number; differences: LedgerDifference[] }> {
  const [{ checked }] = await db.query<{ checked: number }>(
    "select count(*)::int as checked from wristbands",
  );
  const differences = await db.query<LedgerDifference>(
    `with moves as (
       select wristband_id,
         sum(case when payment_method <> 'promo' then (case when direction = 'topup' then amount else -amount end) else 0 end) as paid,
         sum(case when payment_method = 'promo' then (case when direction = 'topup' then amount else -amount end) else 0 end) as promo
       from topups where status = 'completed' group by wristband_id
     ), spent as (
       select wristband_id, sum(balance_spent) as paid, sum(promo_spent) as promo
       from sales where status = 'completed' group by wristband_id
     )
     select w.id as wristband_id, w.nfc, w.balance,
       (coalesce(m.paid, 0) - coalesce(s.paid, 0))::float8 as expected_balance,
       w.promo_balance,
       (coalesce(m.promo, 0) - coalesce(s.promo, 0))::float8 as expected_promo_balance
     from wristbands w left join moves m on m.wristband_id = w.id left join spent s on s.wristband_id = w.id
     where w.balance <> coalesce(m.paid, 0) - coalesce(s.paid, 0)
        or w.promo_balance <> coalesce(m.promo, 0) - coalesce(s.promo, 0)
     order by w.id limit $1`,
    [limit],
  );
  return { checked, differences };
}
