-- Paid top-ups by the ticket type of their wristband's ticket (Top-up flows), kept like the other
-- aggregates instead of joined at read time: the join read every paid top-up of the day (tens of
-- thousands at a large event) on each refresh of each screen.
--
-- m_wristband_ticket_type says what type each wristband counts under (the type of the ticket that
-- names it; the first by id should two name it). The triggers keep two things true after every
-- statement: that table equals what m_tickets says, and a_topups_ticket_type equals the completed
-- paid top-ups of m_topups grouped by day and by that type ('' for a wristband without a known
-- ticket: top-ups often reach the mirror before their ticket does). When a ticket names another
-- wristband or changes type, that wristband's top-ups move between groups.

-- Also the wristband page's top-ups (newest first), which scanned m_topups.
create index m_topups_wristband on m_topups (wristband_id, occurred_at desc);

create table m_wristband_ticket_type (
  wristband_id text primary key,
  ticket_type_id text not null
);

create table a_topups_ticket_type (
  day_id text not null,
  ticket_type_id text not null,
  count bigint not null,
  amount bigint not null,
  primary key (day_id, ticket_type_id)
);

create function live_apply_topup_types(rows m_topups[], sign integer) returns void language plpgsql as $$
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

create function live_topup_types_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform live_apply_topup_types(array(select row(o.*)::m_topups from old_rows o), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform live_apply_topup_types(array(select row(n.*)::m_topups from new_rows n), 1);
  end if;
  return null;
end $$;

create trigger live_topup_types_ins after insert on m_topups referencing new table as new_rows
  for each statement execute function live_topup_types_changed();
create trigger live_topup_types_upd after update on m_topups referencing old table as old_rows new table as new_rows
  for each statement execute function live_topup_types_changed();
create trigger live_topup_types_del after delete on m_topups referencing old table as old_rows
  for each statement execute function live_topup_types_changed();

-- The type a wristband counts under, from m_tickets as it is now (null: no ticket names it).
-- An aggregate, not "order by id limit 1": PGlite keeps no planner statistics (no autovacuum),
-- and with none the planner walked the primary key to find the first match, reading every ticket
-- for a wristband that no ticket names (seconds per page of 200 tickets at 100,000 tickets).
create function live_wristband_type(wristband text) returns text language sql stable as $$
  select (array_agg(k.ticket_type_id order by k.id))[1] from m_tickets k
  where (k.data->'wristband'->>'id') = wristband
$$;

-- Brings the wristbands `ids` up to date: those whose type changed have their top-ups moved from
-- the type they counted under to the one m_tickets gives them now, and their mapping follows. One
-- statement: every part reads the mapping as it was before it.
create function live_retype_wristbands(ids text[]) returns void language plpgsql as $$
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

create function live_tickets_changed() returns trigger language plpgsql as $$
declare
  ids text[] := '{}';
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    ids := ids || array(select o.data->'wristband'->>'id' from old_rows o);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    ids := ids || array(select n.data->'wristband'->>'id' from new_rows n);
  end if;
  perform live_retype_wristbands(ids);
  return null;
end $$;

create trigger live_tickets_ins after insert on m_tickets referencing new table as new_rows
  for each statement execute function live_tickets_changed();
create trigger live_tickets_upd after update on m_tickets referencing old table as old_rows new table as new_rows
  for each statement execute function live_tickets_changed();
create trigger live_tickets_del after delete on m_tickets referencing old table as old_rows
  for each statement execute function live_tickets_changed();

-- Both tables rebuilt from m_tickets and m_topups (tests compare; a store mirrored before this
-- migration). The hour buckets' rebuild (live_recompute_aggregates) leaves them: a ticket type does
-- not depend on the event's time zone.
create function live_recompute_topup_types() returns void language plpgsql as $$
begin
  delete from a_topups_ticket_type;
  delete from m_wristband_ticket_type;
  insert into m_wristband_ticket_type (wristband_id, ticket_type_id)
    select distinct on (k.data->'wristband'->>'id') k.data->'wristband'->>'id', k.ticket_type_id
    from m_tickets k where k.data->'wristband'->>'id' is not null
    order by k.data->'wristband'->>'id', k.id;
  perform live_apply_topup_types(array(select t from m_topups t), 1);
end $$;

select live_recompute_topup_types();
