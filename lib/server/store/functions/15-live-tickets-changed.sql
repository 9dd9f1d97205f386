-- rebuild: select live_recompute_topup_types();
-- After every statement on m_tickets: the wristbands the old and new rows name are re-typed, so
-- m_wristband_ticket_type keeps equal to what m_tickets says.
create or replace function live_tickets_changed() returns trigger language plpgsql as $$
declare
  ids text[] := '{}';
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    ids := ids || array(select o.data->'wristband'->>'id' from old_rows o);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    ids := ids || array(select n.data->'wristband'->>'id' from new_rows n);
  end if;
  perform live_retype_wristbands(ids);
  return null;
end $$;

create or replace trigger live_tickets_ins after insert on m_tickets referencing new table as new_rows
  for each statement execute function live_tickets_changed();
create or replace trigger live_tickets_upd after update on m_tickets referencing old table as old_rows new table as new_rows
  for each statement execute function live_tickets_changed();
create or replace trigger live_tickets_del after delete on m_tickets referencing old table as old_rows
  for each statement execute function live_tickets_changed();
