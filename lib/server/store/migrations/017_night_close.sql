-- Closing a night (issue 24): exactly once, with the float, the coins and a manager's approval.
--
-- Every "only once" below is a constraint of the store, not a read before a write: two requests
-- at the same moment (a double click, two supervisors, two managers) leave one row, and the one
-- that lost learns which row stands.

-- Sign-offs form one chain per night: the first names no predecessor, each later one names the
-- sign-off it supersedes (the one its form was based on). Only one first sign-off per night and
-- only one successor per sign-off: two sign-offs based on the same state of the night cannot both
-- be stored. A form's idempotency key is stored once: a replay answers the original.
alter table recon_signoffs add column idempotency_key uuid;
alter table recon_signoffs add column supersedes bigint;
-- A variance beyond the tolerance: the sign-off is final once a manager approves it.
alter table recon_signoffs add column needs_approval boolean not null default false;

-- The chain of the sign-offs made before this migration (each superseded the previous one of its
-- night). The immutability triggers (function files, applied after the migrations) are dropped
-- for this one derived link, and re-created by their file right after: what was signed, counted
-- and snapshotted does not change. A fresh store has neither rows nor triggers yet.
drop trigger if exists recon_signoffs_no_update on recon_signoffs;
update recon_signoffs s set supersedes =
  (select max(p.id) from recon_signoffs p where p.day_id = s.day_id and p.id < s.id);

create unique index recon_signoffs_day_id on recon_signoffs (day_id, id);
-- A sign-off supersedes one of its own night.
alter table recon_signoffs add constraint recon_signoffs_supersedes_fk
  foreign key (day_id, supersedes) references recon_signoffs (day_id, id);
create unique index recon_signoffs_first on recon_signoffs (day_id) where supersedes is null;
create unique index recon_signoffs_successor on recon_signoffs (supersedes);
create unique index recon_signoffs_idempotency on recon_signoffs (idempotency_key);

-- A manager's approval of a sign-off whose variance is beyond the tolerance: one per sign-off
-- (the primary key), by someone other than the signer, only ever inserted.
create table recon_approvals (
  signoff_id bigint primary key references recon_signoffs (id),
  approved_at timestamptz not null,
  user_id text not null,
  username text not null,
  comment text not null default ''
);

-- The opening float of a cash desk for a night, in minor units: every entry is kept (audited),
-- the latest one counts.
create table recon_floats (
  id bigserial primary key,
  day_id text not null,
  device_id text not null,
  amount bigint not null check (amount >= 0 and amount <= 100000000000),
  set_at timestamptz not null,
  user_id text not null,
  username text not null
);
create index recon_floats_day on recon_floats (day_id, device_id, id desc);

-- Counts saved as a draft (a running night can be counted): one line per desk and method, the
-- latest save wins; a sign-off carries its own lines.
create table recon_count_drafts (
  day_id text not null,
  device_id text not null,
  payment_method text not null,
  counted bigint not null check (counted between -100000000000 and 100000000000),
  -- {"<denomination in minor units>": pieces} when counted by notes and coins
  denominations jsonb,
  updated_at timestamptz not null,
  username text not null,
  primary key (day_id, device_id, payment_method)
);

-- One waiver per terminal and night. Waivers given again before this migration are moved aside
-- (kept, not lost); the first of each terminal and night stands.
create table recon_waivers_superseded (
  id bigint primary key,
  day_id text not null,
  device_id text not null,
  waived_at timestamptz not null,
  user_id text not null,
  username text not null,
  reason text not null
);
insert into recon_waivers_superseded (id, day_id, device_id, waived_at, user_id, username, reason)
  select w.id, w.day_id, w.device_id, w.waived_at, w.user_id, w.username, w.reason from recon_waivers w
  where exists (select 1 from recon_waivers f where f.day_id = w.day_id and f.device_id = w.device_id and f.id < w.id);
drop trigger if exists recon_waivers_no_update on recon_waivers;
delete from recon_waivers w where exists (select 1 from recon_waivers_superseded s where s.id = w.id);
create unique index recon_waivers_once on recon_waivers (day_id, device_id);

-- One acknowledgement per alert: the first stands (the alert's own columns repeat it for the
-- screens' counts). Acknowledgements made before this migration are carried over.
create table alert_acknowledgements (
  alert_id bigint primary key references alerts (id),
  acknowledged_at timestamptz not null,
  user_id text,
  username text not null,
  comment text not null default ''
);
insert into alert_acknowledgements (alert_id, acknowledged_at, username, comment)
  select id, acknowledged_at, coalesce(acknowledged_by, ''), coalesce(ack_comment, '') from alerts
  where acknowledged_at is not null;
