-- A sign-off is history: the store refuses any UPDATE, DELETE or TRUNCATE of one.
create or replace function recon_signoffs_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'sign-offs are immutable (% refused)', TG_OP using errcode = 'P0001';
end $$;

create or replace trigger recon_signoffs_no_update before update or delete on recon_signoffs
  for each row execute function recon_signoffs_immutable();
create or replace trigger recon_signoffs_no_truncate before truncate on recon_signoffs
  for each statement execute function recon_signoffs_immutable();
