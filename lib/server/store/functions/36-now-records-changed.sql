-- rebuild: select now_recompute();
-- Keeps the right-now minute tables exact after every statement on m_sales, m_topups and m_scans
-- (old rows out, new rows in), in the same transaction as the mirror write.
create or replace function now_records_changed() returns trigger language plpgsql as $$
begin
  if TG_TABLE_NAME = 'm_sales' then
    if TG_OP in ('UPDATE', 'DELETE') then
      perform now_apply(array(select row(o.*)::m_sales from old_rows o), '{}', '{}', -1);
    end if;
    if TG_OP in ('INSERT', 'UPDATE') then
      perform now_apply(array(select row(n.*)::m_sales from new_rows n), '{}', '{}', 1);
    end if;
  elsif TG_TABLE_NAME = 'm_topups' then
    if TG_OP in ('UPDATE', 'DELETE') then
      perform now_apply('{}', array(select row(o.*)::m_topups from old_rows o), '{}', -1);
    end if;
    if TG_OP in ('INSERT', 'UPDATE') then
      perform now_apply('{}', array(select row(n.*)::m_topups from new_rows n), '{}', 1);
    end if;
  else
    if TG_OP in ('UPDATE', 'DELETE') then
      perform now_apply('{}', '{}', array(select row(o.*)::m_scans from old_rows o), -1);
    end if;
    if TG_OP in ('INSERT', 'UPDATE') then
      perform now_apply('{}', '{}', array(select row(n.*)::m_scans from new_rows n), 1);
    end if;
  end if;
  return null;
end $$;

create or replace trigger now_sales_ins after insert on m_sales referencing new table as new_rows
  for each statement execute function now_records_changed();
create or replace trigger now_sales_upd after update on m_sales referencing old table as old_rows new table as new_rows
  for each statement execute function now_records_changed();
create or replace trigger now_sales_del after delete on m_sales referencing old table as old_rows
  for each statement execute function now_records_changed();
create or replace trigger now_topups_ins after insert on m_topups referencing new table as new_rows
  for each statement execute function now_records_changed();
create or replace trigger now_topups_upd after update on m_topups referencing old table as old_rows new table as new_rows
  for each statement execute function now_records_changed();
create or replace trigger now_topups_del after delete on m_topups referencing old table as old_rows
  for each statement execute function now_records_changed();
create or replace trigger now_scans_ins after insert on m_scans referencing new table as new_rows
  for each statement execute function now_records_changed();
create or replace trigger now_scans_upd after update on m_scans referencing old table as old_rows new table as new_rows
  for each statement execute function now_records_changed();
create or replace trigger now_scans_del after delete on m_scans referencing old table as old_rows
  for each statement execute function now_records_changed();
