-- rebuild: select live_recompute_topup_types();
-- The type a wristband counts under, from m_tickets as it is now (null: no ticket names it).
-- An aggregate, not "order by id limit 1": PGlite keeps no planner statistics (no autovacuum),
-- and with none the planner walked the primary key to find the first match, reading every ticket
-- for a wristband that no ticket names (seconds per page of 200 tickets at 100,000 tickets).
create or replace function live_wristband_type(wristband text) returns text language sql stable as $$
  select (array_agg(k.ticket_type_id order by k.id))[1] from m_tickets k
  where (k.data->'wristband'->>'id') = wristband
$$;
