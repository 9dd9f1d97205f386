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

-- The logic is in the function files (live_wristband_type, live_tickets_changed,
-- live_review_wristbands_changed, live_recompute_topup_types); the table is rebuilt by them.
-- rebuild: select live_recompute_topup_types();
