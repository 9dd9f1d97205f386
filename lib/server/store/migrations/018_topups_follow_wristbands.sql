-- Paid top-ups by ticket type follow each wristband's own ticket (migration 015 followed the
-- ticket's *current* wristband, so the second wristband of a pending_review pair, and the blocked
-- one after a review, landed in "No ticket known").
--
-- A wristband's ticket never changes upstream (a wristband is linked to a ticket once, at check-in),
-- but the mirror only sees it through two windows: a ticket names its current wristband, and the
-- review queue lists both wristbands of a pending_review pair with their ticket. m_wristband_tickets
-- keeps every wristband a ticket ever had, as the mirror saw it, from both: it only grows (the first
-- link seen is kept), so a review that moves the ticket to the other wristband, or a pair leaving
-- the queue, takes nothing away. A wristband counts under the type of the ticket with that code.

create table m_wristband_tickets (
  wristband_id text primary key,
  ticket_code text not null
);
create index m_wristband_tickets_code on m_wristband_tickets (ticket_code);

-- The type a wristband counts under: its ticket's (null: no ticket known, or not mirrored yet).
create or replace function live_wristband_type(wristband text) returns text language sql stable as $$
  select (array_agg(k.ticket_type_id order by k.id))[1]
  from m_wristband_tickets w join m_tickets k on k.code = w.ticket_code
  where w.wristband_id = wristband
$$;

-- A ticket arrives, changes or goes: the link to its current wristband is learned (a link already
-- known is kept), and every wristband it ever had (by its code) moves its top-ups to the type it
-- counts under now.
create or replace function live_tickets_changed() returns trigger language plpgsql as $$
declare
  codes text[] := '{}';
begin
  if TG_OP in ('INSERT', 'UPDATE') then
    insert into m_wristband_tickets (wristband_id, ticket_code)
      select distinct on (n.data->'wristband'->>'id') n.data->'wristband'->>'id', n.code
      from new_rows n where n.data->'wristband'->>'id' is not null
      order by n.data->'wristband'->>'id', n.id
    on conflict (wristband_id) do nothing;
    codes := codes || array(select n.code from new_rows n);
  end if;
  if TG_OP in ('UPDATE', 'DELETE') then
    codes := codes || array(select o.code from old_rows o);
  end if;
  perform live_retype_wristbands(array(
    select w.wristband_id from m_wristband_tickets w where w.ticket_code = any(codes)));
  return null;
end $$;

-- The review queue arrives (it is replaced as a whole each cycle): both wristbands of each pair
-- are linked to their ticket, and their top-ups move under its type.
create function live_review_wristbands_changed() returns trigger language plpgsql as $$
begin
  insert into m_wristband_tickets (wristband_id, ticket_code)
    select n.id, n.ticket_code from new_rows n where n.ticket_code is not null
  on conflict (wristband_id) do nothing;
  perform live_retype_wristbands(array(select n.id from new_rows n));
  return null;
end $$;

create trigger live_review_wristbands_ins after insert on m_review_wristbands referencing new table as new_rows
  for each statement execute function live_review_wristbands_changed();
create trigger live_review_wristbands_upd after update on m_review_wristbands referencing new table as new_rows
  for each statement execute function live_review_wristbands_changed();

-- The rebuild: the links the mirror can see now are learned (the history kept), then both tables
-- are rebuilt from the links, m_tickets and m_topups.
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

select live_recompute_topup_types();
