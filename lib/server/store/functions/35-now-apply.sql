-- rebuild: select now_recompute();
-- Adds (sign 1) or subtracts (-1) records' contributions to the right-now minute tables (migration
-- 021), per minute of occurred_at: completed sales and their products, completed top-ups by
-- direction and kind (paid, promo: bonus and courtesy, transfer), scans by zone and verdict. Rows
-- whose count falls to 0 are removed (only among the minutes touched).
create or replace function now_apply(sales m_sales[], topups m_topups[], scans m_scans[], sign integer)
returns void language plpgsql as $$
begin
  if cardinality(sales) > 0 then
    insert into a_now_sales_minute as a (minute, count, total)
      select date_trunc('minute', s.occurred_at), sign * count(*), sign * sum(s.total)
      from unnest(sales) s where s.status = 'completed' group by 1
    on conflict (minute) do update set count = a.count + excluded.count, total = a.total + excluded.total;
    delete from a_now_sales_minute a using unnest(sales) s
      where a.minute = date_trunc('minute', s.occurred_at) and a.count = 0;

    insert into a_now_products_minute as a (minute, product_id, name, count, quantity, total)
      select date_trunc('minute', s.occurred_at), i.product_id, max(i.name), sign * count(*),
        sign * sum(i.quantity), sign * sum(i.charged_amount)
      from unnest(sales) s,
        jsonb_to_recordset(s.items) as i(product_id text, name text, quantity bigint, charged_amount bigint)
      where s.status = 'completed' group by 1, 2
    on conflict (minute, product_id) do update set name = excluded.name, count = a.count + excluded.count,
      quantity = a.quantity + excluded.quantity, total = a.total + excluded.total;
    delete from a_now_products_minute a using unnest(sales) s
      where a.minute = date_trunc('minute', s.occurred_at) and a.count = 0;
  end if;

  if cardinality(topups) > 0 then
    insert into a_now_topups_minute as a (minute, direction, kind, count, amount)
      select date_trunc('minute', t.occurred_at), t.direction,
        case when t.nature = 'paid' then 'paid' when t.nature = 'transfer' then 'transfer' else 'promo' end,
        sign * count(*), sign * sum(t.amount)
      from unnest(topups) t where t.status = 'completed' group by 1, 2, 3
    on conflict (minute, direction, kind) do update set count = a.count + excluded.count,
      amount = a.amount + excluded.amount;
    delete from a_now_topups_minute a using unnest(topups) t
      where a.minute = date_trunc('minute', t.occurred_at) and a.count = 0;
  end if;

  if cardinality(scans) > 0 then
    insert into a_now_scans_minute as a (minute, zone_id, allowed, count)
      select date_trunc('minute', s.occurred_at), coalesce(s.zone_id, ''), s.allowed, sign * count(*)
      from unnest(scans) s group by 1, 2, 3
    on conflict (minute, zone_id, allowed) do update set count = a.count + excluded.count;
    delete from a_now_scans_minute a using unnest(scans) s
      where a.minute = date_trunc('minute', s.occurred_at) and a.count = 0;
  end if;
end $$;
