-- rebuild: select attention_recompute();
-- Keeps the device tables exact after every statement on m_topups.
create or replace function attention_topups_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform attention_apply(attention_of_topups(array(select row(o.*)::m_topups from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform attention_apply(attention_of_topups(array(select row(n.*)::m_topups from new_rows n)), 1);
  end if;
  return null;
end $$;

create or replace trigger attention_topups_ins after insert on m_topups referencing new table as new_rows
  for each statement execute function attention_topups_changed();
create or replace trigger attention_topups_upd after update on m_topups referencing old table as old_rows new table as new_rows
  for each statement execute function attention_topups_changed();
create or replace trigger attention_topups_del after delete on m_topups referencing old table as old_rows
  for each statement execute function attention_topups_changed();
