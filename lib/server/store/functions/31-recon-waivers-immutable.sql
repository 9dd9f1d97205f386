-- A waiver is history: the store refuses any UPDATE, DELETE or TRUNCATE of one.
create or replace function recon_waivers_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'waivers are immutable (% refused)', TG_OP using errcode = 'P0001';
end $$;

create or replace trigger recon_waivers_no_update before update or delete on recon_waivers
  for each row execute function recon_waivers_immutable();
create or replace trigger recon_waivers_no_truncate before truncate on recon_waivers
  for each statement execute function recon_waivers_immutable();
