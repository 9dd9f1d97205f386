-- rebuild: select summary_recompute();
-- A ticket whose type or valid days change: the records of its wristbands move to the new scope.
create or replace function summary_ticket_rescoped() returns trigger language plpgsql as $$
begin
  perform summary_rescope(array(select w.id from wristbands w where w.ticket_id = new.id),
    old.ticket_type_id, old.valid_day_ids);
  return null;
end $$;

create or replace trigger summary_ticket_scope after update of ticket_type_id, valid_day_ids on tickets
  for each row when (old.ticket_type_id is distinct from new.ticket_type_id
    or old.valid_day_ids is distinct from new.valid_day_ids)
  execute function summary_ticket_rescoped();
