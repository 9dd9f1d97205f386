-- rebuild: select attention_recompute();
-- Adds (sign 1) or subtracts (-1) records to the device tables (issue 13): per day and device, per
-- device and minute, late arrivals per device and minute. last_* are high-water marks. Only the
-- rows this statement touched can have emptied, so only those are looked at for removal (a scan
-- of a_device_minute, about 100,000 rows a festival, on every page of 200 sales cost too much).
create or replace function attention_apply(recs attention_record[], sign integer) returns void language plpgsql as $$
declare
  late interval := attention_late_after();
begin
  insert into a_device_day as a (day_id, device_id, records, money, late_records, refunds,
      last_occurred_at, last_created_at)
    select r.day_id, r.device_id, sign * count(*), sign * sum(r.money),
      sign * count(*) filter (where r.created_at - r.occurred_at > late),
      sign * count(*) filter (where r.refund), max(r.occurred_at), max(r.created_at)
    from unnest(recs) r group by 1, 2
  on conflict (day_id, device_id) do update set records = a.records + excluded.records,
    money = a.money + excluded.money, late_records = a.late_records + excluded.late_records,
    refunds = a.refunds + excluded.refunds,
    last_occurred_at = case when excluded.records > 0
      then greatest(a.last_occurred_at, excluded.last_occurred_at) else a.last_occurred_at end,
    last_created_at = case when excluded.records > 0
      then greatest(a.last_created_at, excluded.last_created_at) else a.last_created_at end;
  delete from a_device_day where records = 0;

  insert into a_device_minute as a (device_id, minute, records, money, refunds)
    select r.device_id, date_trunc('minute', r.occurred_at), sign * count(*), sign * sum(r.money),
      sign * count(*) filter (where r.refund)
    from unnest(recs) r group by 1, 2
  on conflict (device_id, minute) do update set records = a.records + excluded.records,
    money = a.money + excluded.money, refunds = a.refunds + excluded.refunds;
  delete from a_device_minute a using unnest(recs) r
    where a.device_id = r.device_id and a.minute = date_trunc('minute', r.occurred_at) and a.records = 0;

  insert into a_device_late as a (device_id, arrived, day_id, records, money)
    select r.device_id, date_trunc('minute', r.created_at), r.day_id, sign * count(*), sign * sum(r.money)
    from unnest(recs) r where r.created_at - r.occurred_at > late group by 1, 2, 3
  on conflict (device_id, arrived, day_id) do update set records = a.records + excluded.records,
    money = a.money + excluded.money;
  delete from a_device_late a using unnest(recs) r
    where a.device_id = r.device_id and a.arrived = date_trunc('minute', r.created_at)
      and a.day_id = r.day_id and a.records = 0;
end $$;
