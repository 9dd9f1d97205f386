-- rebuild: select gates_recompute();
-- Adds (sign 1) or subtracts (-1) scans to the gates' tables (migration 023): allowed scans per
-- 5 minutes, zone and device; denied scans per zone, device and reason. On insert (sign 1) the first
-- entries per holder, day and zone (kept: the upstream's scan log is append-only) and, when `queue`,
-- the rules' queue.
create or replace function gates_apply_scans(rows m_scans[], sign integer, queue boolean) returns void language plpgsql as $$
begin
  insert into g_entries_5min as a (day_id, bucket, zone_id, device_id, entries)
    select s.day_id,
      to_timestamp(floor(extract(epoch from s.occurred_at) / 300) * 300),
      coalesce(s.zone_id, ''), coalesce(s.device_id, ''), sign * count(*)
    from unnest(rows) s where s.allowed group by 1, 2, 3, 4
  on conflict (day_id, bucket, zone_id, device_id) do update set entries = a.entries + excluded.entries;
  delete from g_entries_5min a using unnest(rows) s
    where s.allowed and a.day_id = s.day_id and a.zone_id = coalesce(s.zone_id, '')
      and a.device_id = coalesce(s.device_id, '')
      and a.bucket = to_timestamp(floor(extract(epoch from s.occurred_at) / 300) * 300) and a.entries = 0;

  insert into g_denied as a (day_id, zone_id, device_id, reason, count, last_at)
    select s.day_id, coalesce(s.zone_id, ''), coalesce(s.device_id, ''), coalesce(s.reason, ''),
      sign * count(*), max(s.occurred_at)
    from unnest(rows) s where not s.allowed group by 1, 2, 3, 4
  on conflict (day_id, zone_id, device_id, reason) do update set count = a.count + excluded.count,
    last_at = greatest(a.last_at, excluded.last_at);
  delete from g_denied a using unnest(rows) s
    where not s.allowed and a.day_id = s.day_id and a.zone_id = coalesce(s.zone_id, '')
      and a.device_id = coalesce(s.device_id, '') and a.reason = coalesce(s.reason, '') and a.count = 0;

  if sign < 0 then
    return;
  end if;

  -- First entries: per zone and per day (zone ''); a row whose first_at moves back is updated,
  -- a new row counts once in g_zone_day.
  with entries as (
    select s.day_id, z.zone_id, coalesce(s.wristband_id, 't:' || s.ticket_code) as holder,
      s.ticket_code, s.occurred_at, s.id
    from unnest(rows) s
    cross join lateral (values (''), (s.zone_id)) z(zone_id)
    where s.allowed and coalesce(s.wristband_id, s.ticket_code) is not null and z.zone_id is not null
  ), firsts as (
    select distinct on (day_id, zone_id, holder) * from entries order by day_id, zone_id, holder, occurred_at, id
  ), written as (
    insert into g_first_entries as g (day_id, zone_id, holder, ticket_code, first_at, scan_id)
      select day_id, zone_id, holder, ticket_code, occurred_at, id from firsts
    on conflict (day_id, zone_id, holder) do update set first_at = excluded.first_at,
      scan_id = excluded.scan_id, ticket_code = coalesce(g.ticket_code, excluded.ticket_code)
      where excluded.first_at < g.first_at
    returning g.day_id, g.zone_id, (xmax = 0) as inserted
  )
  insert into g_zone_day as d (day_id, zone_id, entered)
    select day_id, zone_id, count(*) from written where inserted group by 1, 2
  on conflict (day_id, zone_id) do update set entered = d.entered + excluded.entered;

  if queue then
    insert into g_misuse_queue (resource, id)
      select 'scans', s.id from unnest(rows) s
      where (s.allowed and coalesce(s.wristband_id, s.ticket_code) is not null)
        or (not s.allowed and s.device_id is not null)
    on conflict do nothing;
  end if;
end $$;
