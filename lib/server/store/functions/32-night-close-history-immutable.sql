-- History of closing a night (approvals, opening floats) is only ever inserted: one function
-- refuses any change, naming the table.
create or replace function night_close_history_immutable() returns trigger language plpgsql as $$
begin
  raise exception '% rows are immutable (% refused)', TG_TABLE_NAME, TG_OP using errcode = 'P0001';
end $$;

create or replace trigger recon_approvals_no_update before update or delete on recon_approvals
  for each row execute function night_close_history_immutable();
create or replace trigger recon_approvals_no_truncate before truncate on recon_approvals
  for each statement execute function night_close_history_immutable();
create or replace trigger recon_floats_no_update before update or delete on recon_floats
  for each row execute function night_close_history_immutable();
create or replace trigger recon_floats_no_truncate before truncate on recon_floats
  for each statement execute function night_close_history_immutable();
