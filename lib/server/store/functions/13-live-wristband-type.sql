-- rebuild: select live_recompute_topup_types();
-- The type a wristband counts under: its own ticket's, through every wristband a ticket ever had
-- (m_wristband_tickets; null: no ticket known, or not mirrored yet). An aggregate, not "order by
-- id limit 1": PGlite keeps no planner statistics (no autovacuum), and with none the planner walked
-- the primary key to find the first match.
create or replace function live_wristband_type(wristband text) returns text language sql stable as $$
  select (array_agg(k.ticket_type_id order by k.id))[1]
  from m_wristband_tickets w join m_tickets k on k.code = w.ticket_code
  where w.wristband_id = wristband
$$;
