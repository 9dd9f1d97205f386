-- rebuild: select gates_recompute();
-- Keeps the gates' tables exact after every statement on m_scans; new scans go to the rules' queue.
create or replace function gates_scans_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform gates_apply_scans(array(select row(o.*)::m_scans from old_rows o), -1, false);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform gates_apply_scans(array(select row(n.*)::m_scans from new_rows n), 1, TG_OP = 'INSERT');
  end if;
  return null;
end $$;

create or replace trigger gates_scans_ins after insert on m_scans referencing new table as new_rows
  for each statement execute function gates_scans_changed();
create or replace trigger gates_scans_upd after update on m_scans referencing old table as old_rows new table as new_rows
  for each statement execute function gates_scans_changed();
create or replace trigger gates_scans_del after delete on m_scans referencing old table as old_rows
  for each statement execute function gates_scans_changed();
