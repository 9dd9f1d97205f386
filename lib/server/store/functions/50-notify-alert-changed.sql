-- The outbox of notifications (migration 024): an alert opened or resolved writes its row in the
-- same transaction, whatever code opened or resolved it (and whatever its kind).
create or replace function notify_alert_changed() returns trigger language plpgsql as $$
begin
  if TG_OP = 'INSERT' then
    insert into notify_outbox (alert_id, event, at) values (new.id, 'opened', new.first_seen)
      on conflict do nothing;
  elsif new.state = 'resolved' and old.state = 'open' then
    insert into notify_outbox (alert_id, event, at)
      values (new.id, 'resolved', coalesce(new.resolved_at, new.last_seen))
      on conflict do nothing;
  end if;
  return null;
end $$;

create or replace trigger notify_alerts_ins after insert on alerts
  for each row execute function notify_alert_changed();
create or replace trigger notify_alerts_upd after update of state on alerts
  for each row execute function notify_alert_changed();
