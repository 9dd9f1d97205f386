-- rebuild: select attention_recompute();
-- The device tables rebuilt from the whole mirror, set-based: the rebuild of the attention files,
-- and what the dashboard runs when ATTENTION_LATE_S changes.
create or replace function attention_recompute() returns void language plpgsql as $$
declare
  late interval := attention_late_after();
begin
  delete from a_device_day;
  delete from a_device_minute;
  delete from a_device_late;
  insert into a_device_day (day_id, device_id, records, money, late_records, refunds, last_occurred_at, last_created_at)
    select day_id, device_id, count(*), sum(money), count(*) filter (where created_at - occurred_at > late),
      count(*) filter (where refund), max(occurred_at), max(created_at)
    from attention_records group by 1, 2;
  insert into a_device_minute (device_id, minute, records, money, refunds)
    select device_id, date_trunc('minute', occurred_at), count(*), sum(money), count(*) filter (where refund)
    from attention_records group by 1, 2;
  insert into a_device_late (device_id, arrived, day_id, records, money)
    select device_id, date_trunc('minute', created_at), day_id, count(*), sum(money)
    from attention_records where created_at - occurred_at > late group by 1, 2, 3;
end $$;
