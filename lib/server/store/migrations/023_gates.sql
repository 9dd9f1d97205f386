-- The gates (issue 28): entries per zone and gate, first entries per wristband and day (the
-- "entered today" of a zone), denied scans by reason and gate, zone capacities, and the misuse
-- rules' queue and cases. The aggregates are kept by triggers on m_scans in the sync worker's own
-- transactions (functions 40-4x); the rules read the queue the triggers fill, so each cycle looks at
-- the records the last polls brought and their neighbours by index, never at the whole day.
-- rebuild: select gates_recompute();

-- A manager's settings: the default minimum walk between two zones, the double-swipe window,
-- the denied-burst rule and the capacity thresholds (percent, ascending).
create table gate_settings (
  id boolean primary key default true check (id),
  walk_min_s integer not null default 60 check (walk_min_s between 1 and 3600),
  double_swipe_s integer not null default 10 check (double_swipe_s between 1 and 300),
  burst_count integer not null default 10 check (burst_count between 2 and 1000),
  burst_window_s integer not null default 300 check (burst_window_s between 10 and 3600),
  thresholds integer[] not null default '{80,95,100}',
  updated_by text,
  updated_at timestamptz
);
insert into gate_settings default values;

-- A minimum walk for one pair of zones (zone_a < zone_b), over the default.
create table gate_walk_pairs (
  zone_a text not null,
  zone_b text not null,
  min_s integer not null check (min_s between 1 and 3600),
  primary key (zone_a, zone_b),
  check (zone_a < zone_b)
);

create table gate_capacity (
  zone_id text primary key,
  capacity integer not null check (capacity > 0),
  updated_by text not null,
  updated_at timestamptz not null
);

-- Allowed scans per event day, 5 minutes of occurred_at (UTC instant), zone ('' none: a check-in)
-- and device ('' none).
create table g_entries_5min (
  day_id text not null,
  bucket timestamptz not null,
  zone_id text not null,
  device_id text not null,
  entries bigint not null,
  primary key (day_id, bucket, zone_id, device_id)
);

-- Denied scans per event day, zone, device and reason.
create table g_denied (
  day_id text not null,
  zone_id text not null,
  device_id text not null,
  reason text not null,
  count bigint not null,
  last_at timestamptz not null,
  primary key (day_id, zone_id, device_id, reason)
);

-- The first allowed scan of each holder (a wristband, else a ticket: 't:' || code) per event day
-- and zone; zone '' is the day itself (any allowed scan). Never decremented: the scan log is
-- append-only upstream.
create table g_first_entries (
  day_id text not null,
  zone_id text not null,
  holder text not null,
  ticket_code text,
  first_at timestamptz not null,
  scan_id text not null,
  primary key (day_id, zone_id, holder)
);
-- How many holders entered each zone each day (the capacity gauge reads one row).
create table g_zone_day (
  day_id text not null,
  zone_id text not null,
  entered bigint not null,
  primary key (day_id, zone_id)
);

-- Records the rules have not looked at yet (filled by the triggers, emptied by the rule step).
create table g_misuse_queue (
  resource text not null check (resource in ('scans', 'sales')),
  id text not null,
  primary key (resource, id)
);

-- Per device and event day, the smallest delay between a record's occurred_at and its arrival
-- upstream: the device's clock offset (misuse-rules.ts) for the impossible-walk rule.
create table g_device_clock (
  device_id text not null,
  day_id text not null,
  smallest_delay_ms bigint not null,
  primary key (device_id, day_id)
);

-- A misuse case: its kind, a key that makes it once, its evidence (records, linked) and figures.
create table misuse_cases (
  id bigserial primary key,
  kind text not null,
  case_key text not null unique,
  subject text not null,
  severity text not null check (severity in ('info', 'warning', 'critical')),
  first_at timestamptz not null,
  last_at timestamptz not null,
  detected_at timestamptz not null,
  updated_at timestamptz not null,
  figures jsonb not null,
  evidence jsonb not null,
  alert_id bigint
);
create index misuse_cases_recent on misuse_cases (detected_at desc, id desc);
create index misuse_cases_kind on misuse_cases (kind, subject, last_at desc);

-- The rules' neighbours: a holder's allowed scans, a ticket's check-ins, a wristband's money.
create index m_scans_holder on m_scans ((coalesce(wristband_id, 't:' || ticket_code)), occurred_at)
  where allowed and coalesce(wristband_id, ticket_code) is not null;
create index m_scans_ticket_checkin on m_scans (ticket_code) where kind = 'check_in' and allowed;
create index m_scans_denied_device on m_scans (device_id, reason, occurred_at) where not allowed;
create index m_sales_wristband on m_sales (wristband_id, created_at);
-- m_topups_wristband (migration 015) serves one wristband's top-ups.

-- A store mirrored before the gates: its records go through the rules once, as a first mirror's do
-- (the same records the triggers of functions 40-42 queue; cases older than an hour raise no alert).
insert into g_misuse_queue (resource, id)
  select 'scans', s.id from m_scans s
  where (s.allowed and coalesce(s.wristband_id, s.ticket_code) is not null)
    or (not s.allowed and s.device_id is not null)
on conflict do nothing;
insert into g_misuse_queue (resource, id)
  select 'sales', n.id from m_sales n
  where n.status = 'completed' and n.payment_method = 'wristband' and n.type = 'cart'
on conflict do nothing;
