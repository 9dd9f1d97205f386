-- rebuild: select live_recompute_aggregates();
-- Adds (sign 1) or subtracts (-1) completed top-ups and withdrawals to their hour buckets.
create or replace function live_apply_topups(rows m_topups[], sign integer) returns void language plpgsql as $$
declare
  tz text := live_tz();
begin
  insert into a_topups_hour as a (day_id, hour, direction, payment_method, nature, count, amount)
    select t.day_id, live_hour(t.occurred_at, tz), t.direction, t.payment_method, t.nature,
      sign * count(*), sign * sum(t.amount)
    from unnest(rows) t where t.status = 'completed' group by 1, 2, 3, 4, 5
  on conflict (day_id, hour, direction, payment_method, nature) do update
    set count = a.count + excluded.count, amount = a.amount + excluded.amount;
  delete from a_topups_hour where count = 0;
end $$;
