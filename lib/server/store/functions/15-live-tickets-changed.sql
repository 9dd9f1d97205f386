-- rebuild: select live_recompute_topup_types();
-- A ticket arrives, changes or goes: the link to its current wristband is learned (a link already
-- known is kept: m_wristband_tickets only grows), and every wristband it ever had (by its code)
-- moves its top-ups to the type it counts under now.
create or replace function live_tickets_changed() returns trigger language plpgsql as $$
declare
  codes text[] := '{}';
begin
  if TG_OP in ('INSERT', 'UPDATE') then
    insert into m_wristband_tickets (wristband_id, ticket_code)
      select distinct on (n.data->'wristband'->>'id') n.data->'wristband'->>'id', n.code
      from new_rows n where n.data->'wristband'->>'id' is not null
      order by n.data->'wristband'->>'id', n.id
    on conflict (wristband_id) do nothing;
    codes := codes || array(select n.code from new_rows n);
  end if;
  if TG_OP in ('UPDATE', 'DELETE') then
    codes := codes || array(select o.code from old_rows o);
  end if;
  perform live_retype_wristbands(array(
    select w.wristband_id from m_wristband_tickets w where w.ticket_code = any(codes)));
  return null;
end $$;

create or replace trigger live_tickets_ins after insert on m_tickets referencing new table as new_rows
  for each statement execute function live_tickets_changed();
create or replace trigger live_tickets_upd after update on m_tickets referencing old table as old_rows new table as new_rows
  for each statement execute function live_tickets_changed();
create or replace trigger live_tickets_del after delete on m_tickets referencing old table as old_rows
  for each statement execute function live_tickets_changed();
