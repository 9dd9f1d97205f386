-- rebuild: select live_recompute_topup_types();
-- m_wristband_ticket_type and a_topups_ticket_type rebuilt from m_tickets and m_topups. The hour
-- buckets' rebuild (live_recompute_aggregates) leaves them: a ticket type does not depend on the
-- event's time zone.
create or replace function live_recompute_topup_types() returns void language plpgsql as $$
begin
  delete from a_topups_ticket_type;
  delete from m_wristband_ticket_type;
  insert into m_wristband_ticket_type (wristband_id, ticket_type_id)
    select distinct on (k.data->'wristband'->>'id') k.data->'wristband'->>'id', k.ticket_type_id
    from m_tickets k where k.data->'wristband'->>'id' is not null
    order by k.data->'wristband'->>'id', k.id;
  perform live_apply_topup_types(array(select t from m_topups t), 1);
end $$;
