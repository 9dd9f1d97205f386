-- rebuild: select now_recompute();
-- The right-now minute tables recomputed from the whole mirror: the rebuild of the files above (an
-- existing store's first start with them fills the tables), what tests compare the triggers' work
-- with. One grouped insert per table (no record arrays, and no row updated over and over: a store
-- without autovacuum, PGlite, would keep every dead version in the minutes read).
create or replace function now_recompute() returns void language plpgsql as $$
begin
  -- Truncated rather than deleted: no dead versions left behind either.
  truncate a_now_sales_minute, a_now_products_minute, a_now_topups_minute, a_now_scans_minute;
  insert into a_now_sales_minute (minute, count, total)
    select date_trunc('minute', s.occurred_at), count(*), sum(s.total)
    from m_sales s where s.status = 'completed' group by 1;
  insert into a_now_products_minute (minute, product_id, name, count, quantity, total)
    select date_trunc('minute', s.occurred_at), i.product_id, max(i.name), count(*), sum(i.quantity),
      sum(i.charged_amount)
    from m_sales s,
      jsonb_to_recordset(s.items) as i(product_id text, name text, quantity bigint, charged_amount bigint)
    where s.status = 'completed' group by 1, 2;
  insert into a_now_topups_minute (minute, direction, kind, count, amount)
    select date_trunc('minute', t.occurred_at), t.direction,
      case when t.nature = 'paid' then 'paid' when t.nature = 'transfer' then 'transfer' else 'promo' end,
      count(*), sum(t.amount)
    from m_topups t where t.status = 'completed' group by 1, 2, 3;
  insert into a_now_scans_minute (minute, zone_id, allowed, count)
    select date_trunc('minute', s.occurred_at), coalesce(s.zone_id, ''), s.allowed, count(*)
    from m_scans s group by 1, 2, 3;
end $$;
