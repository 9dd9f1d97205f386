-- rebuild: select live_recompute_aggregates();
-- Adds (sign 1) or subtracts (-1) sales' contributions to the live aggregates (issue #5): hours,
-- products, devices, payment methods, taxes and late sales. Only `completed` sales count (as
-- GET /reports/sales-summary); rows whose count falls to 0 are removed.
create or replace function live_apply_sales(rows m_sales[], sign integer) returns void language plpgsql as $$
declare
  tz text := live_tz();
begin
  insert into a_sales_hour as a (day_id, hour, count, total, total_base, total_tax)
    select s.day_id, live_hour(s.occurred_at, tz), sign * count(*), sign * sum(s.total),
      sign * sum(s.total_base), sign * sum(s.total_tax)
    from unnest(rows) s where s.status = 'completed' group by 1, 2
  on conflict (day_id, hour) do update set count = a.count + excluded.count,
    total = a.total + excluded.total, total_base = a.total_base + excluded.total_base,
    total_tax = a.total_tax + excluded.total_tax;
  delete from a_sales_hour where count = 0;

  insert into a_sales_product as a (day_id, product_id, name, count, quantity, total)
    select s.day_id, i.product_id, max(i.name), sign * count(*), sign * sum(i.quantity),
      sign * sum(i.charged_amount)
    from unnest(rows) s,
      jsonb_to_recordset(s.items) as i(product_id text, name text, quantity bigint, charged_amount bigint)
    where s.status = 'completed' group by 1, 2
  on conflict (day_id, product_id) do update set name = excluded.name, count = a.count + excluded.count,
    quantity = a.quantity + excluded.quantity, total = a.total + excluded.total;
  delete from a_sales_product where count = 0;

  insert into a_sales_device as a (day_id, device_id, count, total)
    select s.day_id, coalesce(s.device_id, ''), sign * count(*), sign * sum(s.total)
    from unnest(rows) s where s.status = 'completed' group by 1, 2
  on conflict (day_id, device_id) do update set count = a.count + excluded.count,
    total = a.total + excluded.total;
  delete from a_sales_device where count = 0;

  insert into a_sales_payment as a (day_id, payment_method, count, total)
    select s.day_id, s.payment_method, sign * count(*), sign * sum(s.total)
    from unnest(rows) s where s.status = 'completed' group by 1, 2
  on conflict (day_id, payment_method) do update set count = a.count + excluded.count,
    total = a.total + excluded.total;
  delete from a_sales_payment where count = 0;

  insert into a_sales_tax as a (day_id, tax_type, rate, count, base, tax)
    select s.day_id, t.tax_type, t.rate, sign * count(*), sign * sum(t.base), sign * sum(t.amount)
    from unnest(rows) s,
      jsonb_to_recordset(s.tax_breakdown) as t(tax_type text, rate numeric, base bigint, amount bigint)
    where s.status = 'completed' group by 1, 2, 3
  on conflict (day_id, tax_type, rate) do update set count = a.count + excluded.count,
    base = a.base + excluded.base, tax = a.tax + excluded.tax;
  delete from a_sales_tax where count = 0;

  insert into a_sales_late as a (day_id, device_id, count, total, latest_created_at)
    select s.day_id, coalesce(s.device_id, ''), sign * count(*), sign * sum(s.total), max(s.created_at)
    from unnest(rows) s where s.status = 'completed' and s.created_at - s.occurred_at > interval '10 minutes'
    group by 1, 2
  on conflict (day_id, device_id) do update set count = a.count + excluded.count,
    total = a.total + excluded.total,
    latest_created_at = case when excluded.count > 0
      then greatest(a.latest_created_at, excluded.latest_created_at) else a.latest_created_at end;
  delete from a_sales_late where count = 0;
end $$;
