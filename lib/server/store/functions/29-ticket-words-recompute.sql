-- rebuild: select ticket_words_recompute();
-- m_ticket_words rebuilt from m_tickets.search_name, by the same words as m_tickets_index_words
-- (m_ticket_search_words).
create or replace function ticket_words_recompute() returns void language plpgsql as $$
begin
  delete from m_ticket_words;
  insert into m_ticket_words (word, ticket_id, search_name)
    select distinct w, t.id, t.search_name
    from m_tickets t, m_ticket_search_words(t.search_name) as w
    where t.search_name is not null;
end $$;
