-- Dashboard store: staff users, the mirror of the upstream event, and the sync worker's state.

create table users (
  id text primary key,
  username text not null unique,
  -- scrypt$N$r$p$salt$hash (base64url); the password itself is never stored.
  password_hash text not null,
  role text not null check (role in ('manager', 'supervisor', 'staff')),
  failed_attempts integer not null default 0,
  locked_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table m_event (
  id text primary key,
  name text not null,
  currency text not null,
  time_zone text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  environment text not null,
  synced_at timestamptz not null
);

create table m_days (
  id text primary key,
  name text not null,
  date text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null
);

create table m_zones (
  id text primary key,
  name text not null
);

create table m_ticket_types (
  id text primary key,
  name text not null,
  data jsonb not null
);

create table m_tickets (
  id text primary key,
  code text not null,
  status text not null,
  ticket_type_id text not null,
  updated_at timestamptz not null,
  data jsonb not null
);
create index m_tickets_code on m_tickets (code);

-- Wristbands waiting for review (pending_review), refreshed as a whole each cycle.
create table m_review_wristbands (
  id text primary key,
  nfc text not null,
  ticket_code text,
  status text not null,
  updated_at timestamptz not null,
  data jsonb not null
);

create table m_sales (
  id text primary key,
  status text not null,
  type text not null,
  payment_method text not null,
  total integer not null,
  total_base integer not null,
  total_tax integer not null,
  tax_breakdown jsonb not null,
  items jsonb not null,
  wristband_id text not null,
  day_id text not null,
  device_id text,
  occurred_at timestamptz not null,
  created_at timestamptz not null
);
create index m_sales_day on m_sales (day_id, status);
create index m_sales_occurred_at on m_sales (occurred_at);

create table m_topups (
  id text primary key,
  direction text not null,
  amount integer not null,
  previous_balance integer not null,
  new_balance integer not null,
  payment_method text not null,
  nature text not null,
  status text not null,
  wristband_id text not null,
  day_id text not null,
  device_id text,
  occurred_at timestamptz not null,
  created_at timestamptz not null
);
create index m_topups_day on m_topups (day_id, status);
create index m_topups_occurred_at on m_topups (occurred_at);

create table m_scans (
  id text primary key,
  kind text not null,
  allowed boolean not null,
  reason text,
  ticket_code text,
  wristband_id text,
  zone_id text,
  device_id text,
  day_id text not null,
  occurred_at timestamptz not null,
  created_at timestamptz not null
);
create index m_scans_day on m_scans (day_id);

-- One row per mirrored resource: where the tail stands and how the last runs went.
create table sync_state (
  resource text primary key,
  cursor text,
  watermark timestamptz,
  last_success_at timestamptz,
  last_attempt_at timestamptz,
  lag_seconds double precision,
  requests_used bigint not null default 0,
  records_synced bigint not null default 0,
  last_error text,
  last_error_code text,
  last_error_request_id text,
  last_error_at timestamptz
);

-- The latest upstream errors, newest first, for the connection screen.
create table sync_errors (
  id bigserial primary key,
  at timestamptz not null default now(),
  resource text not null,
  status integer,
  code text,
  message text not null,
  request_id text
);
