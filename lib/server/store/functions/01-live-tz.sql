-- rebuild: select live_recompute_aggregates();
-- The event's time zone, in which the live aggregates' hour buckets are cut (UTC until the event
-- is mirrored).
create or replace function live_tz() returns text language sql stable as $$
  select coalesce((select time_zone from m_event limit 1), 'UTC')
$$;
