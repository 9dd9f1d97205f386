-- rebuild: select live_recompute_topup_types();
-- Adds (sign 1) or subtracts (-1) completed paid top-ups to a_topups_ticket_type, under the type
-- their wristband counts under now ('' for a wristband without a known ticket).
create or replace function live_apply_topup_types(rows m_topups[], sign integer) returns void language plpgsql as $$
begin
  insert into a_topups_ticket_type as a (day_id, ticket_type_id, count, amount)
    select t.day_id, coalesce(w.ticket_type_id, ''), sign * count(*), sign * sum(t.amount)
    from unnest(rows) t left join m_wristband_ticket_type w on w.wristband_id = t.wristband_id
    where t.status = 'completed' and t.direction = 'topup' and t.nature = 'paid'
    group by 1, 2
  on conflict (day_id, ticket_type_id) do update set count = a.count + excluded.count,
    amount = a.amount + excluded.amount;
  delete from a_topups_ticket_type where count = 0;
end $$;
