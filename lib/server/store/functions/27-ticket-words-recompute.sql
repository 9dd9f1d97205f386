-- rebuild: select ticket_words_recompute();
-- m_ticket_words rebuilt from m_tickets.search_name: the rebuild of m_tickets_index_words, whose
-- way of splitting a name into words it repeats (a change to one is a change to both).
create or replace function ticket_words_recompute() returns void language plpgsql as $$
begin
  delete from m_ticket_words;
  insert into m_ticket_words (word, ticket_id, search_name)
    select distinct w, t.id, t.search_name
    from m_tickets t, unnest(string_to_array(t.search_name, ' ')) as w where w <> '';
end $$;
