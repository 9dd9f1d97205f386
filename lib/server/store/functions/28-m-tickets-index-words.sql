-- rebuild: select ticket_words_recompute();
-- Keeps m_ticket_words (one row per distinct word of a ticket's normalized name) in step with
-- m_tickets.search_name (issue 14), by the words m_ticket_search_words finds a name by.
create or replace function m_tickets_index_words() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    if new.search_name is not distinct from old.search_name then
      return null;
    end if;
    delete from m_ticket_words where ticket_id = new.id;
  end if;
  insert into m_ticket_words (word, ticket_id, search_name)
    select distinct w, new.id, new.search_name from m_ticket_search_words(new.search_name) as w;
  return null;
end
$$;

create or replace trigger m_tickets_words after insert or update of search_name on m_tickets
  for each row execute function m_tickets_index_words();
