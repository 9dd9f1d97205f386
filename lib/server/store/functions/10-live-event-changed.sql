-- Hour buckets depend on the event's time zone: when it is first known or changes, rebuild.
create or replace function live_event_changed() returns trigger language plpgsql as $$
begin
  if TG_OP = 'INSERT' or old.time_zone is distinct from new.time_zone then
    perform live_recompute_aggregates();
  end if;
  return null;
end $$;

create or replace trigger live_event_tz after insert or update on m_event
  for each row execute function live_event_changed();
