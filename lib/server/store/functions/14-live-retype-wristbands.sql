-- rebuild: select live_recompute_topup_types();
-- Brings the wristbands `ids` up to date: those whose type changed have their top-ups moved from
-- the type they counted under to the one m_tickets gives them now, and their mapping follows. One
-- statement: every part reads the mapping as it was before it.
create or replace function live_retype_wristbands(ids text[]) returns void language plpgsql as $$
begin
  with changed as materialized (
    select n.wristband_id, coalesce(m.ticket_type_id, '') as old_type, n.new_type
    from (
      select w.id as wristband_id, coalesce(live_wristband_type(w.id), '') as new_type
      from (select distinct id from unnest(ids) as u(id) where id is not null) w
    ) n left join m_wristband_ticket_type m on m.wristband_id = n.wristband_id
    where coalesce(m.ticket_type_id, '') <> n.new_type
  ),
  -- Each changed wristband's top-ups through m_topups_wristband: "offset 0" keeps the lookup per
  -- wristband (without statistics the planner read every completed top-up for a hash join).
  moved as (
    select t.day_id, c.old_type, c.new_type, count(*) as n, sum(t.amount) as amount
    from changed c cross join lateral (
      select x.day_id, x.amount, x.status, x.direction, x.nature
      from m_topups x where x.wristband_id = c.wristband_id offset 0
    ) t
    where t.status = 'completed' and t.direction = 'topup' and t.nature = 'paid'
    group by 1, 2, 3
  ),
  mapped as (
    insert into m_wristband_ticket_type (wristband_id, ticket_type_id)
      select wristband_id, new_type from changed where new_type <> ''
    on conflict (wristband_id) do update set ticket_type_id = excluded.ticket_type_id
    returning 1
  ),
  unmapped as (
    delete from m_wristband_ticket_type m using changed c
    where m.wristband_id = c.wristband_id and c.new_type = ''
    returning 1
  )
  insert into a_topups_ticket_type as a (day_id, ticket_type_id, count, amount)
    select day_id, ticket_type_id, sum(n)::bigint, sum(amount)::bigint from (
      select day_id, old_type as ticket_type_id, -n as n, -amount as amount from moved
      union all
      select day_id, new_type, n, amount from moved
    ) d group by 1, 2
  on conflict (day_id, ticket_type_id) do update set count = a.count + excluded.count,
    amount = a.amount + excluded.amount;
  delete from a_topups_ticket_type where count = 0;
end $$;
