-- Is tonight complete? (issue 13) A night stays provisional while a terminal active that night has
-- not reached the server since well before the night's last activity (it may still hold records),
-- until it syncs or a supervisor waives it. Waivers are history: only ever inserted.

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

create function recon_waivers_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'waivers are immutable (% refused)', TG_OP using errcode = 'P0001';
end $$;

create trigger recon_waivers_no_update before update or delete on recon_waivers
  for each row execute function recon_waivers_immutable();
create trigger recon_waivers_no_truncate before truncate on recon_waivers
  for each statement execute function recon_waivers_immutable();
