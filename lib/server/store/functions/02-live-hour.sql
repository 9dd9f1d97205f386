-- rebuild: select live_recompute_aggregates();
-- Hour bucket: the UTC instant at which the event-local hour holding `at` starts. Across a
-- daylight-saving change the two local 02:00 hours are distinct instants, so distinct buckets
-- (lib/shared/format/time.ts cuts hours the same way).
create or replace function live_hour(at timestamptz, tz text) returns timestamptz language sql stable as $$
  select at - ((at at time zone tz) - date_trunc('hour', at at time zone tz))
$$;
