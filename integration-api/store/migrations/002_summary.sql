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
--
-- The functions and triggers are in integration-api/store/functions/, re-applied at every start;
-- summary_recompute() rebuilds these tables from the records (a store seeded before them).

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

-- The scope of a wristband's records: its ticket's type and valid days.
create view summary_wristband_scope as
  select w.id as wristband_id, coalesce(t.ticket_type_id, '') as ticket_type_id,
    coalesce(t.valid_day_ids, '{}') as ticket_day_ids
  from wristbands w left join tickets t on t.id = w.ticket_id;
