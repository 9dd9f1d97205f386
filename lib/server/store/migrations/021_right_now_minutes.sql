-- Right now (issue 27): the last 15 minutes by occurred_at, per minute, kept exact by the triggers of
-- the function files 35-37 (as the hour aggregates of 003): a window reads 15 minutes of rows of
-- these tables, never the mirror's records. A minute is the UTC instant it starts (whole-minute
-- offsets: every zone's minutes are UTC minutes). Completed sales and top-ups only; every scan.
create table a_now_sales_minute (
  minute timestamptz primary key,
  count bigint not null,
  total bigint not null
);

create table a_now_products_minute (
  minute timestamptz not null,
  product_id text not null,
  name text not null,
  count bigint not null,
  quantity bigint not null,
  total bigint not null,
  primary key (minute, product_id)
);

-- kind: paid (nature paid), promo (bonus, courtesy) or transfer (between wristbands), never mixed.
create table a_now_topups_minute (
  minute timestamptz not null,
  direction text not null,
  kind text not null,
  count bigint not null,
  amount bigint not null,
  primary key (minute, direction, kind)
);

create table a_now_scans_minute (
  minute timestamptz not null,
  zone_id text not null,
  allowed boolean not null,
  count bigint not null,
  primary key (minute, zone_id, allowed)
);

-- The current minute, not over yet, is read from the records (through their occurred_at indexes):
-- the scans' like the sales' and top-ups' (m_sales_occurred_at, m_topups_occurred_at). "If not
-- exists": a store that ran this branch's first 021 (the index alone) has it already.
create index if not exists m_scans_occurred_at on m_scans (occurred_at);
