-- Right now (issue 27): the last 15 minutes of door scans by occurred_at, over every day, through an
-- index like the sales' and top-ups' (m_sales_occurred_at, m_topups_occurred_at).
create index m_scans_occurred_at on m_scans (occurred_at);
