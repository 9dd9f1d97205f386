-- Is tonight complete? (issue 13) A night stays provisional while a terminal active that night has
-- not reached the server since well before the night's last activity (it may still hold records),
-- until it syncs or a supervisor waives it. Waivers are history: only ever inserted (a trigger,
-- lib/server/store/functions/*-recon-waivers-immutable.sql, refuses any other write).

-- A terminal whose last arrival is this long before the night's last activity is not synced up
-- (ATTENTION_QUIET_S: the same minimum silence that makes a terminal quiet).
alter table attention_settings add column quiet_after interval not null default interval '10 minutes';

create table recon_waivers (
  id bigserial primary key,
  day_id text not null,
  device_id text not null,
  waived_at timestamptz not null,
  user_id text not null,
  username text not null,
  reason text not null
);
create index recon_waivers_day on recon_waivers (day_id, device_id, id desc);
