-- Aggregates of the live screens (issue #5), kept exact by statement-level triggers on the mirror
-- tables: every insert, update (a re-sent record, a status change) and delete (a day re-walk, an
-- event reset) subtracts the old rows' contributions and adds the new ones, in the same
-- transaction as the mirror write. Screens read these small tables, never a scan of m_sales.
--
-- Hour bucket: the UTC instant at which the event-local hour holding occurred_at starts. Across a
-- daylight-saving change the two local 02:00 hours are distinct instants, so distinct buckets.
-- Only `completed` sales and top-ups count (as GET /reports/sales-summary); every scan counts.
-- Rows whose count falls to 0 are removed.

create function live_tz() returns text language sql stable as $$
  select coalesce((select time_zone from m_event limit 1), 'UTC')
$$;

create function live_hour(at timestamptz, tz text) returns timestamptz language sql stable as $$
  select at - ((at at time zone tz) - date_trunc('hour', at at time zone tz))
$$;

create table a_sales_hour (
  day_id text not null,
  hour timestamptz not null,
  count bigint not null,
  total bigint not null,
  total_base bigint not null,
  total_tax bigint not null,
  primary key (day_id, hour)
);

create table a_sales_product (
  day_id text not null,
  product_id text not null,
  name text not null,
  count bigint not null,
  quantity bigint not null,
  total bigint not null,
  primary key (day_id, product_id)
);

create table a_sales_device (
  day_id text not null,
  device_id text not null,
  count bigint not null,
  total bigint not null,
  primary key (day_id, device_id)
);

create table a_sales_payment (
  day_id text not null,
  payment_method text not null,
  count bigint not null,
  total bigint not null,
  primary key (day_id, payment_method)
);

create table a_sales_tax (
  day_id text not null,
  tax_type text not null,
  rate numeric not null,
  count bigint not null,
  base bigint not null,
  tax bigint not null,
  primary key (day_id, tax_type, rate)
);

-- Sales that reached the upstream more than 10 minutes after they happened, per device.
-- latest_created_at is a high-water mark (it does not go back when a record is removed).
create table a_sales_late (
  day_id text not null,
  device_id text not null,
  count bigint not null,
  total bigint not null,
  latest_created_at timestamptz,
  primary key (day_id, device_id)
);

create table a_topups_hour (
  day_id text not null,
  hour timestamptz not null,
  direction text not null,
  payment_method text not null,
  nature text not null,
  count bigint not null,
  amount bigint not null,
  primary key (day_id, hour, direction, payment_method, nature)
);

create table a_scans_hour (
  day_id text not null,
  hour timestamptz not null,
  zone_id text not null,
  allowed boolean not null,
  reason text not null,
  count bigint not null,
  primary key (day_id, hour, zone_id, allowed, reason)
);

-- Lists of the screens: latest first within a day.
create index m_sales_day_latest on m_sales (day_id, occurred_at desc, id desc);
create index m_topups_day_latest on m_topups (day_id, occurred_at desc, id desc);
create index m_scans_day_latest on m_scans (day_id, allowed, occurred_at desc, id desc);

create function live_apply_sales(rows m_sales[], sign integer) returns void language plpgsql as $$
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

create function live_apply_topups(rows m_topups[], sign integer) returns void language plpgsql as $$
declare
  tz text := live_tz();
begin
  insert into a_topups_hour as a (day_id, hour, direction, payment_method, nature, count, amount)
    select t.day_id, live_hour(t.occurred_at, tz), t.direction, t.payment_method, t.nature,
      sign * count(*), sign * sum(t.amount)
    from unnest(rows) t where t.status = 'completed' group by 1, 2, 3, 4, 5
  on conflict (day_id, hour, direction, payment_method, nature) do update
    set count = a.count + excluded.count, amount = a.amount + excluded.amount;
  delete from a_topups_hour where count = 0;
end $$;

create function live_apply_scans(rows m_scans[], sign integer) returns void language plpgsql as $$
declare
  tz text := live_tz();
begin
  insert into a_scans_hour as a (day_id, hour, zone_id, allowed, reason, count)
    select s.day_id, live_hour(s.occurred_at, tz), coalesce(s.zone_id, ''), s.allowed,
      coalesce(s.reason, ''), sign * count(*)
    from unnest(rows) s group by 1, 2, 3, 4, 5
  on conflict (day_id, hour, zone_id, allowed, reason) do update set count = a.count + excluded.count;
  delete from a_scans_hour where count = 0;
end $$;

create function live_sales_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform live_apply_sales(array(select row(o.*)::m_sales from old_rows o), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform live_apply_sales(array(select row(n.*)::m_sales from new_rows n), 1);
  end if;
  return null;
end $$;

create function live_topups_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform live_apply_topups(array(select row(o.*)::m_topups from old_rows o), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform live_apply_topups(array(select row(n.*)::m_topups from new_rows n), 1);
  end if;
  return null;
end $$;

create function live_scans_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform live_apply_scans(array(select row(o.*)::m_scans from old_rows o), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform live_apply_scans(array(select row(n.*)::m_scans from new_rows n), 1);
  end if;
  return null;
end $$;

create trigger live_sales_ins after insert on m_sales referencing new table as new_rows
  for each statement execute function live_sales_changed();
create trigger live_sales_upd after update on m_sales referencing old table as old_rows new table as new_rows
  for each statement execute function live_sales_changed();
create trigger live_sales_del after delete on m_sales referencing old table as old_rows
  for each statement execute function live_sales_changed();
create trigger live_topups_ins after insert on m_topups referencing new table as new_rows
  for each statement execute function live_topups_changed();
create trigger live_topups_upd after update on m_topups referencing old table as old_rows new table as new_rows
  for each statement execute function live_topups_changed();
create trigger live_topups_del after delete on m_topups referencing old table as old_rows
  for each statement execute function live_topups_changed();
create trigger live_scans_ins after insert on m_scans referencing new table as new_rows
  for each statement execute function live_scans_changed();
create trigger live_scans_upd after update on m_scans referencing old table as old_rows new table as new_rows
  for each statement execute function live_scans_changed();
create trigger live_scans_del after delete on m_scans referencing old table as old_rows
  for each statement execute function live_scans_changed();

-- The aggregates recomputed from the whole mirror (tests compare; repairs after an event's time
-- zone changes).
create function live_recompute_aggregates() returns void language plpgsql as $$
begin
  delete from a_sales_hour;
  delete from a_sales_product;
  delete from a_sales_device;
  delete from a_sales_payment;
  delete from a_sales_tax;
  delete from a_sales_late;
  delete from a_topups_hour;
  delete from a_scans_hour;
  perform live_apply_sales(array(select s from m_sales s), 1);
  perform live_apply_topups(array(select t from m_topups t), 1);
  perform live_apply_scans(array(select s from m_scans s), 1);
end $$;

-- Hour buckets depend on the event's time zone: when it is first known or changes, rebuild.
create function live_event_changed() returns trigger language plpgsql as $$
begin
  if TG_OP = 'INSERT' or old.time_zone is distinct from new.time_zone then
    perform live_recompute_aggregates();
  end if;
  return null;
end $$;

create trigger live_event_tz after insert or update on m_event
  for each row execute function live_event_changed();
