-- rebuild: select summary_recompute();
-- A wristband linked to another ticket (check-in linking an anonymous wristband): its records
-- move to the new ticket's scope.
create or replace function summary_wristband_relinked() returns trigger language plpgsql as $$
begin
  perform summary_rescope(array[new.id],
    coalesce((select t.ticket_type_id from tickets t where t.id = old.ticket_id), ''),
    coalesce((select t.valid_day_ids from tickets t where t.id = old.ticket_id), '{}'));
  return null;
end $$;

create or replace trigger summary_wristband_ticket after update of ticket_id on wristbands
  for each row when (old.ticket_id is distinct from new.ticket_id)
  execute function summary_wristband_relinked();
