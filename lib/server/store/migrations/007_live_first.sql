-- Live from the first second (issue 12).
-- The upstream's sales summary of each day as last fetched: the figures the screens show while the
-- day's mirror is incomplete or differs from it.
create table sync_day_summaries (
  day_id text primary key,
  summary jsonb not null,
  fetched_at timestamptz not null
);

-- The first mirror of the tail resources, walked day by day (`day_id`): the current day first, then
-- the days before it, newest first. One row per resource and day, resumable from its cursor.
create table sync_backfill (
  resource text not null check (resource in ('sales', 'topups', 'scans')),
  day_id text not null,
  position integer not null,
  cursor text,
  records integer not null default 0,
  requests integer not null default 0,
  done boolean not null default false,
  started_at timestamptz,
  finished_at timestamptz,
  primary key (resource, day_id)
);
create index sync_backfill_pending on sync_backfill (position) where not done;
