-- rebuild: select live_recompute_topup_types();
-- m_wristband_ticket_type and a_topups_ticket_type rebuilt: the links the mirror can see now are
-- learned (the history kept), then both tables are rebuilt from the links, m_tickets and m_topups.
-- The hour buckets' rebuild (live_recompute_aggregates) leaves them: a ticket type does not depend
-- on the event's time zone.
create or replace function live_recompute_topup_types() returns void language plpgsql as $$
begin
  insert into m_wristband_tickets (wristband_id, ticket_code)
    select distinct on (k.data->'wristband'->>'id') k.data->'wristband'->>'id', k.code
    from m_tickets k where k.data->'wristband'->>'id' is not null
    order by k.data->'wristband'->>'id', k.id
  on conflict (wristband_id) do nothing;
  insert into m_wristband_tickets (wristband_id, ticket_code)
    select r.id, r.ticket_code from m_review_wristbands r where r.ticket_code is not null
  on conflict (wristband_id) do nothing;
  delete from a_topups_ticket_type;
  delete from m_wristband_ticket_type;
  insert into m_wristband_ticket_type (wristband_id, ticket_type_id)
    select distinct on (w.wristband_id) w.wristband_id, k.ticket_type_id
    from m_wristband_tickets w join m_tickets k on k.code = w.ticket_code
    order by w.wristband_id, k.id;
  perform live_apply_topup_types(array(select t from m_topups t), 1);
end $$;
