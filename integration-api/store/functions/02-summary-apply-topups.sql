-- rebuild: select summary_recompute();
-- Adds (sign 1) or subtracts (-1) completed top-ups and withdrawals, with their scope, to
-- summary_flows (bonuses are its rows of nature 'bonus' and direction 'topup').
create or replace function summary_apply_topups(rows summary_topup[], sign integer) returns void language plpgsql as $$
begin
  insert into summary_flows as a (day_id, ticket_type_id, ticket_day_ids, direction, payment_method, nature,
      count, amount)
    select t.day_id, t.ticket_type_id, t.ticket_day_ids, t.direction, t.payment_method, t.nature,
      sign * count(*), sign * sum(t.amount)
    from unnest(rows) t group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
  on conflict (day_id, ticket_type_id, ticket_day_ids, direction, payment_method, nature) do update
    set count = a.count + excluded.count, amount = a.amount + excluded.amount;
  if sign < 0 then
    delete from summary_flows where count = 0;
  end if;
end $$;
