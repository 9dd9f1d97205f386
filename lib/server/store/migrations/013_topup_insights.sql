-- Top-ups by ticket type (issue 13): a top-up's wristband leads to its ticket through the ticket's
-- `wristband` (kept in m_tickets.data); this index makes that join a lookup per top-up.
create index m_tickets_wristband on m_tickets ((data->'wristband'->>'id'));

-- New negative balances (issue 13's alerts): a top-up or withdrawal of a wristband that was below
-- zero (an offline sale left it there) says so in its previous_balance. Few rows: a small index.
create index m_topups_negative on m_topups (created_at) where previous_balance < 0;
