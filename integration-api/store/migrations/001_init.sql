-- Integration API store. Ids are 24 lowercase hex characters that grow with arrival time,
-- so every list is ordered by id and a cursor is simply "id > $cursor".

create table event (
  id text primary key,
  name text not null,
  currency char(3) not null,
  time_zone text not null,
  -- Total bonus one person (a ticket and its wristbands) may receive, in cents.
  bonus_cap_per_person integer not null default 0,
  created_at timestamptz not null default now()
);

create table days (
  id text primary key,
  name text not null,
  date date not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null
);

create table zones (
  id text primary key,
  name text not null
);

create table ticket_types (
  id text primary key,
  name text not null,
  zone_ids text[] not null default '{}'
);

create table tickets (
  id text primary key,
  code text not null unique,
  status text not null check (status in ('active', 'used', 'inactive')),
  ticket_type_id text not null references ticket_types (id),
  attendee_name text not null,
  attendee_email text not null,
  document_type text,
  document_number text,
  birth_date date,
  valid_day_ids text[] not null,
  extra_zone_ids text[] not null default '{}',
  wristband_id text,
  checked_in_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index tickets_updated_at on tickets (updated_at, id);
create index tickets_status on tickets (status, id);

create table wristbands (
  id text primary key,
  nfc text not null unique,
  uhf text unique,
  status text not null check (status in ('active', 'blocked', 'lost', 'released', 'pending_review')),
  balance integer not null default 0,
  promo_balance integer not null default 0,
  attendee_name text,
  ticket_id text references tickets (id),
  zone_ids text[] not null default '{}',
  valid_day_ids text[] not null default '{}',
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index wristbands_ticket on wristbands (ticket_id);
create index wristbands_status on wristbands (status, id);
create index wristbands_updated_at on wristbands (updated_at, id);

create table sales (
  id text primary key,
  status text not null check (status in ('completed', 'pending', 'cancelled')),
  type text not null check (type in ('cart', 'return')),
  payment_method text not null check (payment_method in ('wristband', 'card', 'cash')),
  total integer not null,
  total_base integer not null,
  total_tax integer not null,
  tax_breakdown jsonb not null,
  items jsonb not null,
  -- How much of the total came out of each balance (wristband payments only); never exposed.
  promo_spent integer not null default 0,
  balance_spent integer not null default 0,
  wristband_id text not null references wristbands (id),
  day_id text not null references days (id),
  device_id text,
  occurred_at timestamptz not null,
  created_at timestamptz not null,
  check (total = total_base + total_tax)
);
create index sales_day on sales (day_id, id);
create index sales_occurred_at on sales (occurred_at);
create index sales_wristband on sales (wristband_id, id);

create table topups (
  id text primary key,
  direction text not null check (direction in ('topup', 'withdraw')),
  amount integer not null check (amount > 0),
  previous_balance integer not null,
  new_balance integer not null,
  payment_method text not null check (payment_method in ('card', 'cash', 'online', 'promo', 'transfer')),
  nature text not null check (nature in ('paid', 'bonus', 'courtesy', 'transfer')),
  status text not null check (status in ('completed', 'pending', 'failed')),
  bonus_rule_id text,
  wristband_id text not null references wristbands (id),
  day_id text not null references days (id),
  device_id text,
  occurred_at timestamptz not null,
  created_at timestamptz not null
);
create index topups_day on topups (day_id, id);
create index topups_occurred_at on topups (occurred_at);
create index topups_wristband on topups (wristband_id, id);

create table scans (
  id text primary key,
  kind text not null check (kind in ('check_in', 'access_check')),
  allowed boolean not null,
  reason text,
  code text,
  ticket_code text,
  wristband_id text,
  zone_id text,
  device_id text,
  day_id text not null references days (id),
  occurred_at timestamptz not null,
  created_at timestamptz not null
);
create index scans_day on scans (day_id, id);
create index scans_occurred_at on scans (occurred_at);

create table bonus_rules (
  id text primary key,
  name text not null,
  valid_from timestamptz not null,
  valid_until timestamptz not null,
  -- [{ "min_amount": 2000, "bonus_amount": 100 }, ...]
  tiers jsonb not null
);

create table api_keys (
  id text primary key,
  name text not null,
  -- SHA-256 of the whole key, hex; the key itself is never stored.
  key_hash char(64) not null unique,
  key_hint text not null,
  environment text not null check (environment in ('live', 'test')),
  scopes text[] not null,
  restricted_ticket_type_ids text[] not null default '{}',
  restricted_day_ids text[] not null default '{}',
  rate_limits jsonb not null,
  allowed_ips text[] not null default '{}',
  expires_at timestamptz,
  activated_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null
);

create table idempotency_keys (
  api_key_id text not null references api_keys (id),
  key uuid not null,
  method text not null,
  path text not null,
  body_hash char(64) not null,
  -- null while the first request still runs
  response_status integer,
  response_body text,
  created_at timestamptz not null,
  primary key (api_key_id, key)
);
create index idempotency_keys_created_at on idempotency_keys (created_at);
