-- rebuild: select live_recompute_topup_types();
-- The review queue arrives (it is replaced as a whole each cycle): both wristbands of each pair
-- are linked to their ticket, and their top-ups move under its type.
create or replace function live_review_wristbands_changed() returns trigger language plpgsql as $$
begin
  insert into m_wristband_tickets (wristband_id, ticket_code)
    select n.id, n.ticket_code from new_rows n where n.ticket_code is not null
  on conflict (wristband_id) do nothing;
  perform live_retype_wristbands(array(select n.id from new_rows n));
  return null;
end $$;

create or replace trigger live_review_wristbands_ins after insert on m_review_wristbands referencing new table as new_rows
  for each statement execute function live_review_wristbands_changed();
create or replace trigger live_review_wristbands_upd after update on m_review_wristbands referencing new table as new_rows
  for each statement execute function live_review_wristbands_changed();
