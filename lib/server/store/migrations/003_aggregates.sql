-- Aggregates of the live screens (issue #5), kept exact by statement-level triggers on the mirror
-- tables: every insert, update (a re-sent record, a status change) and delete (a day re-walk, an
-- event reset) subtracts the old rows' contributions and adds the new ones, in the same
-- transaction as the mirror write. Screens read these small tables, never a scan of m_sales.
--
-- Hour bucket: the UTC instant at which the event-local hour holding occurred_at starts. Across a
-- daylight-saving change the two local 02:00 hours are distinct instants, so distinct buckets.
-- Only `completed` sales and top-ups count (as GET /reports/sales-summary); every scan counts.
-- Rows whose count falls to 0 are removed.
--
-- The functions and triggers that keep them are in lib/server/store/functions/ (01 to 10),
-- re-applied at every start; live_recompute_aggregates() rebuilds them from the mirror.

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
