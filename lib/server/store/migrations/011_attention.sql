-- What needs attention (issue 13): what the mirror reveals about every terminal, kept by triggers
-- on the mirror tables in the sync worker's own transactions (as the live aggregates of 003), so
-- the states and alerts computed after each cycle read a few small rows, never a scan of m_sales.
-- Only records with a device_id count. Times are UTC instants (a minute bucket is the same in
-- every time zone, a daylight-saving night included).

-- How late a record must reach the upstream to count as late (ATTENTION_LATE_S; the dashboard
-- writes it at start and rebuilds the device tables when it changes).
create table attention_settings (
  id boolean primary key default true check (id),
  late_after interval not null default interval '10 minutes'
);
insert into attention_settings default values;

create function attention_late_after() returns interval language sql stable as $$
  select coalesce((select late_after from attention_settings), interval '10 minutes')
$$;

-- Per event day and device. last_* are high-water marks: they do not go back when a record leaves.
create table a_device_day (
  day_id text not null,
  device_id text not null,
  records bigint not null,
  money bigint not null,
  late_records bigint not null,
  refunds bigint not null,
  last_occurred_at timestamptz,
  last_created_at timestamptz,
  primary key (day_id, device_id)
);
create index a_device_day_device on a_device_day (device_id, day_id);

-- Per device and minute of occurred_at: the sparkline, the terminal's rhythm, refund rates.
create table a_device_minute (
  device_id text not null,
  minute timestamptz not null,
  records bigint not null,
  money bigint not null,
  refunds bigint not null,
  primary key (device_id, minute)
);
create index a_device_minute_minute on a_device_minute (minute);

-- Late records per device, minute of arrival (created_at) and night: bursts and what they moved.
create table a_device_late (
  device_id text not null,
  arrived timestamptz not null,
  day_id text not null,
  records bigint not null,
  money bigint not null,
  primary key (device_id, arrived, day_id)
);
create index a_device_late_arrived on a_device_late (arrived);

-- A terminal's records, newest first (the terminal page).
create index m_sales_device on m_sales (device_id, occurred_at desc);
create index m_topups_device on m_topups (device_id, occurred_at desc);
create index m_scans_device on m_scans (device_id, occurred_at desc);

-- One record's part in the device tables: money is the completed amount (a sale's total, a top-up
-- or a withdrawal), a refund is a withdrawal or a returned cart.
create type attention_record as (
  device_id text,
  day_id text,
  occurred_at timestamptz,
  created_at timestamptz,
  money bigint,
  refund boolean
);

create function attention_apply(recs attention_record[], sign integer) returns void language plpgsql as $$
declare
  late interval := attention_late_after();
begin
  insert into a_device_day as a (day_id, device_id, records, money, late_records, refunds,
      last_occurred_at, last_created_at)
    select r.day_id, r.device_id, sign * count(*), sign * sum(r.money),
      sign * count(*) filter (where r.created_at - r.occurred_at > late),
      sign * count(*) filter (where r.refund), max(r.occurred_at), max(r.created_at)
    from unnest(recs) r group by 1, 2
  on conflict (day_id, device_id) do update set records = a.records + excluded.records,
    money = a.money + excluded.money, late_records = a.late_records + excluded.late_records,
    refunds = a.refunds + excluded.refunds,
    last_occurred_at = case when excluded.records > 0
      then greatest(a.last_occurred_at, excluded.last_occurred_at) else a.last_occurred_at end,
    last_created_at = case when excluded.records > 0
      then greatest(a.last_created_at, excluded.last_created_at) else a.last_created_at end;
  delete from a_device_day where records = 0;

  insert into a_device_minute as a (device_id, minute, records, money, refunds)
    select r.device_id, date_trunc('minute', r.occurred_at), sign * count(*), sign * sum(r.money),
      sign * count(*) filter (where r.refund)
    from unnest(recs) r group by 1, 2
  on conflict (device_id, minute) do update set records = a.records + excluded.records,
    money = a.money + excluded.money, refunds = a.refunds + excluded.refunds;
  delete from a_device_minute where records = 0;

  insert into a_device_late as a (device_id, arrived, day_id, records, money)
    select r.device_id, date_trunc('minute', r.created_at), r.day_id, sign * count(*), sign * sum(r.money)
    from unnest(recs) r where r.created_at - r.occurred_at > late group by 1, 2, 3
  on conflict (device_id, arrived, day_id) do update set records = a.records + excluded.records,
    money = a.money + excluded.money;
  delete from a_device_late where records = 0;
end $$;

create function attention_of_sales(rows m_sales[]) returns attention_record[] language sql immutable as $$
  select coalesce(array_agg(row(s.device_id, s.day_id, s.occurred_at, s.created_at,
    case when s.status = 'completed' then abs(s.total) else 0 end, s.type = 'return')::attention_record), '{}')
  from unnest(rows) s where s.device_id is not null
$$;

create function attention_of_topups(rows m_topups[]) returns attention_record[] language sql immutable as $$
  select coalesce(array_agg(row(t.device_id, t.day_id, t.occurred_at, t.created_at,
    case when t.status = 'completed' then t.amount else 0 end, t.direction = 'withdraw')::attention_record), '{}')
  from unnest(rows) t where t.device_id is not null
$$;

create function attention_of_scans(rows m_scans[]) returns attention_record[] language sql immutable as $$
  select coalesce(array_agg(row(s.device_id, s.day_id, s.occurred_at, s.created_at, 0, false)::attention_record), '{}')
  from unnest(rows) s where s.device_id is not null
$$;

create function attention_sales_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform attention_apply(attention_of_sales(array(select row(o.*)::m_sales from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform attention_apply(attention_of_sales(array(select row(n.*)::m_sales from new_rows n)), 1);
  end if;
  return null;
end $$;

create function attention_topups_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform attention_apply(attention_of_topups(array(select row(o.*)::m_topups from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform attention_apply(attention_of_topups(array(select row(n.*)::m_topups from new_rows n)), 1);
  end if;
  return null;
end $$;

create function attention_scans_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform attention_apply(attention_of_scans(array(select row(o.*)::m_scans from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform attention_apply(attention_of_scans(array(select row(n.*)::m_scans from new_rows n)), 1);
  end if;
  return null;
end $$;

create trigger attention_sales_ins after insert on m_sales referencing new table as new_rows
  for each statement execute function attention_sales_changed();
create trigger attention_sales_upd after update on m_sales referencing old table as old_rows new table as new_rows
  for each statement execute function attention_sales_changed();
create trigger attention_sales_del after delete on m_sales referencing old table as old_rows
  for each statement execute function attention_sales_changed();
create trigger attention_topups_ins after insert on m_topups referencing new table as new_rows
  for each statement execute function attention_topups_changed();
create trigger attention_topups_upd after update on m_topups referencing old table as old_rows new table as new_rows
  for each statement execute function attention_topups_changed();
create trigger attention_topups_del after delete on m_topups referencing old table as old_rows
  for each statement execute function attention_topups_changed();
create trigger attention_scans_ins after insert on m_scans referencing new table as new_rows
  for each statement execute function attention_scans_changed();
create trigger attention_scans_upd after update on m_scans referencing old table as old_rows new table as new_rows
  for each statement execute function attention_scans_changed();
create trigger attention_scans_del after delete on m_scans referencing old table as old_rows
  for each statement execute function attention_scans_changed();

-- Every mirror record as an attention_record (what the triggers see, for a rebuild).
create view attention_records as
  select device_id, day_id, occurred_at, created_at,
    (case when status = 'completed' then abs(total) else 0 end)::bigint as money, type = 'return' as refund
  from m_sales where device_id is not null
  union all
  select device_id, day_id, occurred_at, created_at,
    (case when status = 'completed' then amount else 0 end)::bigint, direction = 'withdraw'
  from m_topups where device_id is not null
  union all
  select device_id, day_id, occurred_at, created_at, 0::bigint, false from m_scans where device_id is not null;

-- The device tables rebuilt from the whole mirror, set-based (tests compare; a changed late_after;
-- existing mirrors when this migration runs).
create function attention_recompute() returns void language plpgsql as $$
declare
  late interval := attention_late_after();
begin
  delete from a_device_day;
  delete from a_device_minute;
  delete from a_device_late;
  insert into a_device_day (day_id, device_id, records, money, late_records, refunds, last_occurred_at, last_created_at)
    select day_id, device_id, count(*), sum(money), count(*) filter (where created_at - occurred_at > late),
      count(*) filter (where refund), max(occurred_at), max(created_at)
    from attention_records group by 1, 2;
  insert into a_device_minute (device_id, minute, records, money, refunds)
    select device_id, date_trunc('minute', occurred_at), count(*), sum(money), count(*) filter (where refund)
    from attention_records group by 1, 2;
  insert into a_device_late (device_id, arrived, day_id, records, money)
    select device_id, date_trunc('minute', created_at), day_id, count(*), sum(money)
    from attention_records where created_at - occurred_at > late group by 1, 2, 3;
end $$;

select attention_recompute();

-- Every terminal's state, computed by the sync worker after each cycle.
create table terminal_states (
  device_id text primary key,
  state text not null check (state in ('live', 'quiet', 'late', 'back', 'idle')),
  since timestamptz not null,
  last_occurred_at timestamptz,
  last_created_at timestamptz,
  figures jsonb not null,
  computed_at timestamptz not null
);

-- A manager's choice of a terminal's station, over the one its device id suggests.
create table terminal_stations (
  device_id text primary key,
  station text not null,
  updated_by text not null,
  updated_at timestamptz not null
);

-- Alerts open and resolve by themselves as their condition starts and ends. A condition that comes
-- back after its alert resolved opens a new alert (unacknowledged).
create table alerts (
  id bigserial primary key,
  kind text not null,
  subject text not null,
  severity text not null check (severity in ('info', 'warning', 'critical')),
  state text not null check (state in ('open', 'resolved')),
  first_seen timestamptz not null,
  last_seen timestamptz not null,
  resolved_at timestamptz,
  figures jsonb not null,
  link text not null,
  acknowledged_by text,
  acknowledged_at timestamptz,
  ack_comment text
);
create unique index alerts_open_subject on alerts (kind, subject) where state = 'open';
create index alerts_recent on alerts (last_seen desc, id desc);
