-- rebuild: select summary_recompute();
-- Adds (sign 1) or subtracts (-1) completed sales, with their scope, to the kept sales summary:
-- totals, payment methods, taxes (count: tax lines) and products. Only a subtraction can empty a
-- row, so an insert, the common write, deletes nothing.
create or replace function summary_apply_sales(rows summary_sale[], sign integer) returns void language plpgsql as $$
begin
  insert into summary_sales as a (day_id, ticket_type_id, ticket_day_ids, count, total, total_base, total_tax)
    select s.day_id, s.ticket_type_id, s.ticket_day_ids, sign * count(*), sign * sum(s.total),
      sign * sum(s.total_base), sign * sum(s.total_tax)
    from unnest(rows) s group by 1, 2, 3 order by 1, 2, 3
  on conflict (day_id, ticket_type_id, ticket_day_ids) do update set count = a.count + excluded.count,
    total = a.total + excluded.total, total_base = a.total_base + excluded.total_base,
    total_tax = a.total_tax + excluded.total_tax;
  if sign < 0 then
    delete from summary_sales where count = 0;
  end if;

  insert into summary_payment as a (day_id, ticket_type_id, ticket_day_ids, payment_method, count, total)
    select s.day_id, s.ticket_type_id, s.ticket_day_ids, s.payment_method, sign * count(*), sign * sum(s.total)
    from unnest(rows) s group by 1, 2, 3, 4 order by 1, 2, 3, 4
  on conflict (day_id, ticket_type_id, ticket_day_ids, payment_method) do update
    set count = a.count + excluded.count, total = a.total + excluded.total;
  if sign < 0 then
    delete from summary_payment where count = 0;
  end if;

  insert into summary_tax as a (day_id, ticket_type_id, ticket_day_ids, tax_type, rate, count, base, amount)
    select s.day_id, s.ticket_type_id, s.ticket_day_ids, x.tax_type, x.rate, sign * count(*),
      sign * sum(x.base), sign * sum(x.amount)
    from unnest(rows) s,
      jsonb_to_recordset(s.tax_breakdown) as x(tax_type text, rate numeric, base bigint, amount bigint)
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  on conflict (day_id, ticket_type_id, ticket_day_ids, tax_type, rate) do update
    set count = a.count + excluded.count, base = a.base + excluded.base, amount = a.amount + excluded.amount;
  if sign < 0 then
    delete from summary_tax where count = 0;
  end if;

  insert into summary_product as a (day_id, ticket_type_id, ticket_day_ids, product_id, name, count, quantity, total)
    select s.day_id, s.ticket_type_id, s.ticket_day_ids, i.product_id, i.name, sign * count(*),
      sign * sum(i.quantity), sign * sum(i.charged_amount)
    from unnest(rows) s,
      jsonb_to_recordset(s.items) as i(product_id text, name text, quantity bigint, charged_amount bigint)
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
  on conflict (day_id, ticket_type_id, ticket_day_ids, product_id, name) do update
    set count = a.count + excluded.count, quantity = a.quantity + excluded.quantity,
      total = a.total + excluded.total;
  if sign < 0 then
    delete from summary_product where count = 0;
  end if;
end $$;
