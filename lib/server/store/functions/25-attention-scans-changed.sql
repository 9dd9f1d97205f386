-- rebuild: select attention_recompute();
-- Keeps the device tables exact after every statement on m_scans.
create or replace function attention_scans_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform attention_apply(attention_of_scans(array(select row(o.*)::m_scans from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform attention_apply(attention_of_scans(array(select row(n.*)::m_scans from new_rows n)), 1);
  end if;
  return null;
end $$;

create or replace trigger attention_scans_ins after insert on m_scans referencing new table as new_rows
  for each statement execute function attention_scans_changed();
create or replace trigger attention_scans_upd after update on m_scans referencing old table as old_rows new table as new_rows
  for each statement execute function attention_scans_changed();
create or replace trigger attention_scans_del after delete on m_scans referencing old table as old_rows
  for each statement execute function attention_scans_changed();
