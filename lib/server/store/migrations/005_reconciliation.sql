-- Night reconciliation (issue #7): sign-offs of a night by a cash supervisor, each with a frozen
-- snapshot of the night's figures, and requests to re-walk one day at the sync worker's next cycle.
--
-- A sign-off is history: it is only ever inserted. There is no UPDATE path in the code, and the
-- store refuses any UPDATE or DELETE (and TRUNCATE) of a sign-off with a trigger
-- (lib/server/store/functions/*-recon-signoffs-immutable.sql).

create table recon_signoffs (
  id bigserial primary key,
  day_id text not null,
  signed_at timestamptz not null default now(),
  user_id text not null,
  username text not null,
  comment text not null default '',
  -- [{device_id, payment_method, counted, expected, variance}] in cents
  counted jsonb not null,
  -- the night's report as it was when signed (totals, breakdowns, expected cash, checksum)
  snapshot jsonb not null
);
create index recon_signoffs_day on recon_signoffs (day_id, id desc);

-- "Re-sync this night": the worker re-walks the day's sales and top-ups on its next cycle and
-- marks the request handled.
create table sync_requests (
  id bigserial primary key,
  day_id text not null,
  requested_at timestamptz not null default now(),
  requested_by text,
  handled_at timestamptz
);
create index sync_requests_pending on sync_requests (day_id) where handled_at is null;
