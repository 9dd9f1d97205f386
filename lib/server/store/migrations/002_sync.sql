-- Sync worker bookkeeping beyond 001: the last cycle per resource, the worker's heartbeat and the
-- read quota it last saw (so every instance's screens can show them), and per-day checksums.

alter table sync_state add column last_cycle_requests integer not null default 0;
alter table sync_state add column last_cycle_records integer not null default 0;

-- One row (id = 1), written by whichever instance holds the sync leadership.
create table sync_worker (
  id integer primary key check (id = 1),
  instance text not null,
  started_at timestamptz not null,
  heartbeat_at timestamptz not null,
  interval_ms integer not null,
  cycles bigint not null default 0,
  last_cycle_started_at timestamptz,
  last_cycle_finished_at timestamptz,
  last_cycle_ms integer,
  last_cycle_requests integer,
  paused_until timestamptz,
  quota_limit integer,
  quota_remaining integer,
  quota_reset_at timestamptz,
  quota_observed_at timestamptz
);

-- The last comparison of each day's mirror with GET /reports/sales-summary?day_id=.
create table sync_day_checks (
  day_id text primary key,
  checked_at timestamptz not null,
  matched boolean not null,
  upstream jsonb not null,
  mirror jsonb not null,
  rewalks integer not null default 0,
  last_rewalk_at timestamptz
);
