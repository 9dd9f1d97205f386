-- Paid top-ups by the ticket type of their wristband's ticket (Top-up flows), kept like the other
-- aggregates instead of joined at read time: the join read every paid top-up of the day (tens of
-- thousands at a large event) on each refresh of each screen.
--
-- m_wristband_ticket_type says what type each wristband counts under (the type of the ticket that
-- names it; the first by id should two name it). The triggers keep two things true after every
-- statement: that table equals what m_tickets says, and a_topups_ticket_type equals the completed
-- paid top-ups of m_topups grouped by day and by that type ('' for a wristband without a known
-- ticket: top-ups often reach the mirror before their ticket does). When a ticket names another
-- wristband or changes type, that wristband's top-ups move between groups. The functions and
-- triggers: the live_*topup_type*, live_*wristband* and live_tickets_changed files of
-- lib/server/store/functions/; live_recompute_topup_types() rebuilds both tables.

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
