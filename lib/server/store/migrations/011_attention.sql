-- What needs attention (issue 13): what the mirror reveals about every terminal, kept by triggers
-- on the mirror tables in the sync worker's own transactions (as the live aggregates of 003), so
-- the states and alerts computed after each cycle read a few small rows, never a scan of m_sales.
-- Only records with a device_id count. Times are UTC instants (a minute bucket is the same in
-- every time zone, a daylight-saving night included). The functions and triggers are the
-- attention_* files of lib/server/store/functions/; attention_recompute() rebuilds the tables.

-- How late a record must reach the upstream to count as late (ATTENTION_LATE_S; the dashboard
-- writes it at start and rebuilds the device tables when it changes).
create table attention_settings (
  id boolean primary key default true check (id),
  late_after interval not null default interval '10 minutes'
);
insert into attention_settings default values;

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
