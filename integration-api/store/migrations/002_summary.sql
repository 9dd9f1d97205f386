-- The sales summary kept as it is written ("Live from the first second", item 5): GET
-- /reports/sales-summary reads these small tables, never a scan of the sales. Statement-level
-- triggers on sales and topups subtract the old rows' contributions and add the new ones, in the
-- same transaction as the write (insert, a status change, a delete). Only `completed` records
-- count, as in the summary. Rows whose count falls to 0 are removed (only a subtraction can do
-- that, so an insert, the common write, deletes nothing).
--
-- Every row is kept per day and per scope: the ticket type and valid days of the ticket of the
-- record's wristband ('' and '{}' for an anonymous wristband). That is all a key restriction
-- looks at besides day_id (store/sql.ts recordVisible), so a restricted key's summary is the sum
-- over the scopes it may see. When a wristband gets a ticket (check-in linking an anonymous
-- wristband) or a ticket's type or days change, its records' rows move to the new scope.

create table summary_sales (
  day_id text not null,
  ticket_type_id text not null,
  ticket_day_ids text[] not null,
  count bigint not null,
  total bigint not null,
  total_base bigint not null,
  total_tax bigint not null,
  primary key (day_id, ticket_type_id, ticket_day_ids)
);

create table summary_payment (
  day_id text not null,
  ticket_type_id text not null,
  ticket_day_ids text[] not null,
  payment_method text not null,
  count bigint not null,
  total bigint not null,
  primary key (day_id, ticket_type_id, ticket_day_ids, payment_method)
);

-- count: tax lines (a line of base 0 still shows in the summary).
create table summary_tax (
  day_id text not null,
  ticket_type_id text not null,
  ticket_day_ids text[] not null,
  tax_type text not null,
  rate numeric not null,
  count bigint not null,
  base bigint not null,
  amount bigint not null,
  primary key (day_id, ticket_type_id, ticket_day_ids, tax_type, rate)
);

-- Per product and name: the summary shows the least name a product was sold under.
create table summary_product (
  day_id text not null,
  ticket_type_id text not null,
  ticket_day_ids text[] not null,
  product_id text not null,
  name text not null,
  count bigint not null,
  quantity bigint not null,
  total bigint not null,
  primary key (day_id, ticket_type_id, ticket_day_ids, product_id, name)
);

-- Top-ups and withdrawals; bonuses are the rows of nature 'bonus' and direction 'topup'.
create table summary_flows (
  day_id text not null,
  ticket_type_id text not null,
  ticket_day_ids text[] not null,
  direction text not null,
  payment_method text not null,
  nature text not null,
  count bigint not null,
  amount bigint not null,
  primary key (day_id, ticket_type_id, ticket_day_ids, direction, payment_method, nature)
);

-- A completed record with its scope: what the apply functions add (sign 1) or subtract (-1).
create type summary_sale as (
  day_id text,
  ticket_type_id text,
  ticket_day_ids text[],
  payment_method text,
  total bigint,
  total_base bigint,
  total_tax bigint,
  tax_breakdown jsonb,
  items jsonb
);

create type summary_topup as (
  day_id text,
  ticket_type_id text,
  ticket_day_ids text[],
  direction text,
  payment_method text,
  nature text,
  amount bigint
);

create function summary_apply_sales(rows summary_sale[], sign integer) returns void language plpgsql as $$
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

create function summary_apply_topups(rows summary_topup[], sign integer) returns void language plpgsql as $$
begin
  insert into summary_flows as a (day_id, ticket_type_id, ticket_day_ids, direction, payment_method, nature,
      count, amount)
    select t.day_id, t.ticket_type_id, t.ticket_day_ids, t.direction, t.payment_method, t.nature,
      sign * count(*), sign * sum(t.amount)
    from unnest(rows) t group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
  on conflict (day_id, ticket_type_id, ticket_day_ids, direction, payment_method, nature) do update
    set count = a.count + excluded.count, amount = a.amount + excluded.amount;
  if sign < 0 then
    delete from summary_flows where count = 0;
  end if;
end $$;

-- The scope of a wristband's records: its ticket's type and valid days.
create view summary_wristband_scope as
  select w.id as wristband_id, coalesce(t.ticket_type_id, '') as ticket_type_id,
    coalesce(t.valid_day_ids, '{}') as ticket_day_ids
  from wristbands w left join tickets t on t.id = w.ticket_id;

-- Completed records with their scope: the wristband's current one, or the one given (a rescope
-- subtracts records under the scope they had before).
create function summary_sales_of(rows sales[], scope_type text default null, scope_days text[] default null)
returns summary_sale[] language plpgsql stable as $$
begin
  return (select coalesce(array_agg((s.day_id, coalesce(scope_type, c.ticket_type_id),
      coalesce(scope_days, c.ticket_day_ids), s.payment_method, s.total, s.total_base, s.total_tax,
      s.tax_breakdown, s.items)::summary_sale), '{}')
  from unnest(rows) s join summary_wristband_scope c on c.wristband_id = s.wristband_id
  where s.status = 'completed');
end $$;

create function summary_topups_of(rows topups[], scope_type text default null, scope_days text[] default null)
returns summary_topup[] language plpgsql stable as $$
begin
  return (select coalesce(array_agg((t.day_id, coalesce(scope_type, c.ticket_type_id),
      coalesce(scope_days, c.ticket_day_ids), t.direction, t.payment_method, t.nature,
      t.amount)::summary_topup), '{}')
  from unnest(rows) t join summary_wristband_scope c on c.wristband_id = t.wristband_id
  where t.status = 'completed');
end $$;

create function summary_sales_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform summary_apply_sales(summary_sales_of(array(select row(o.*)::sales from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform summary_apply_sales(summary_sales_of(array(select row(n.*)::sales from new_rows n)), 1);
  end if;
  return null;
end $$;

create function summary_topups_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform summary_apply_topups(summary_topups_of(array(select row(o.*)::topups from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform summary_apply_topups(summary_topups_of(array(select row(n.*)::topups from new_rows n)), 1);
  end if;
  return null;
end $$;

create trigger summary_sales_ins after insert on sales referencing new table as new_rows
  for each statement execute function summary_sales_changed();
create trigger summary_sales_upd after update on sales referencing old table as old_rows new table as new_rows
  for each statement execute function summary_sales_changed();
create trigger summary_sales_del after delete on sales referencing old table as old_rows
  for each statement execute function summary_sales_changed();
create trigger summary_topups_ins after insert on topups referencing new table as new_rows
  for each statement execute function summary_topups_changed();
create trigger summary_topups_upd after update on topups referencing old table as old_rows new table as new_rows
  for each statement execute function summary_topups_changed();
create trigger summary_topups_del after delete on topups referencing old table as old_rows
  for each statement execute function summary_topups_changed();

-- Moves the completed records of some wristbands from one scope to another (their current one is
-- read from the view, so call it after the change, with the scope they had before).
create function summary_rescope(wristband_ids text[], old_type text, old_days text[]) returns void
language plpgsql as $$
declare
  moved_sales sales[] := array(select s from sales s where s.wristband_id = any(wristband_ids));
  moved_topups topups[] := array(select t from topups t where t.wristband_id = any(wristband_ids));
begin
  perform summary_apply_sales(summary_sales_of(moved_sales, old_type, old_days), -1);
  perform summary_apply_sales(summary_sales_of(moved_sales), 1);
  perform summary_apply_topups(summary_topups_of(moved_topups, old_type, old_days), -1);
  perform summary_apply_topups(summary_topups_of(moved_topups), 1);
end $$;

create function summary_wristband_relinked() returns trigger language plpgsql as $$
begin
  perform summary_rescope(array[new.id],
    coalesce((select t.ticket_type_id from tickets t where t.id = old.ticket_id), ''),
    coalesce((select t.valid_day_ids from tickets t where t.id = old.ticket_id), '{}'));
  return null;
end $$;

create function summary_ticket_rescoped() returns trigger language plpgsql as $$
begin
  perform summary_rescope(array(select w.id from wristbands w where w.ticket_id = new.id),
    old.ticket_type_id, old.valid_day_ids);
  return null;
end $$;

create trigger summary_wristband_ticket after update of ticket_id on wristbands
  for each row when (old.ticket_id is distinct from new.ticket_id)
  execute function summary_wristband_relinked();
create trigger summary_ticket_scope after update of ticket_type_id, valid_day_ids on tickets
  for each row when (old.ticket_type_id is distinct from new.ticket_type_id
    or old.valid_day_ids is distinct from new.valid_day_ids)
  execute function summary_ticket_rescoped();

-- Everything recomputed from the records, in batches of sales so that a million of them never sit
-- in one array (back-fill of an existing store; a repair).
create function summary_recompute() returns void language plpgsql as $$
declare
  after_id text := '';
  batch sales[];
begin
  delete from summary_sales;
  delete from summary_payment;
  delete from summary_tax;
  delete from summary_product;
  delete from summary_flows;
  loop
    batch := array(select s from sales s where s.id > after_id order by s.id limit 50000);
    exit when cardinality(batch) = 0;
    perform summary_apply_sales(summary_sales_of(batch), 1);
    after_id := (batch[cardinality(batch)]).id;
  end loop;
  perform summary_apply_topups(summary_topups_of(array(select t from topups t)), 1);
end $$;

select summary_recompute();
