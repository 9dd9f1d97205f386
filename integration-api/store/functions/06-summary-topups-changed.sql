-- rebuild: select summary_recompute();
-- Keeps the summary's flows exact after every statement on topups.
create or replace function summary_topups_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform summary_apply_topups(summary_topups_of(array(select row(o.*)::topups from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform summary_apply_topups(summary_topups_of(array(select row(n.*)::topups from new_rows n)), 1);
  end if;
  return null;
end $$;

create or replace trigger summary_topups_ins after insert on topups referencing new table as new_rows
  for each statement execute function summary_topups_changed();
create or replace trigger summary_topups_upd after update on topups referencing old table as old_rows new table as new_rows
  for each statement execute function summary_topups_changed();
create or replace trigger summary_topups_del after delete on topups referencing old table as old_rows
  for each statement execute function summary_topups_changed();
