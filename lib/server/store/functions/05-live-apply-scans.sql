-- rebuild: select live_recompute_aggregates();
-- Adds (sign 1) or subtracts (-1) scans to their hour buckets (every scan counts).
create or replace function live_apply_scans(rows m_scans[], sign integer) returns void language plpgsql as $$
declare
  tz text := live_tz();
begin
  insert into a_scans_hour as a (day_id, hour, zone_id, allowed, reason, count)
    select s.day_id, live_hour(s.occurred_at, tz), coalesce(s.zone_id, ''), s.allowed,
      coalesce(s.reason, ''), sign * count(*)
    from unnest(rows) s group by 1, 2, 3, 4, 5
  on conflict (day_id, hour, zone_id, allowed, reason) do update set count = a.count + excluded.count;
  delete from a_scans_hour where count = 0;
end $$;
