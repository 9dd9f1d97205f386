-- Find a ticket by its attendee's name (issue 14): an index of name words, no extension needed.
--
-- m_tickets.search_name is the attendee's name normalized by the console (lib/shared/search-text.ts:
-- lowercase, no accents, words separated by one space), written with every ticket upsert. A row
-- trigger keeps m_ticket_words, one row per distinct word of that name, in step. Its primary key is
-- a btree on the word in the "C" collation (byte order), so "every word starting with alv" is one
-- index range scan, the same on PGlite and PostgreSQL. Tickets mirrored before this migration get
-- their search_name when the store opens (fillTicketSearchNames).

alter table m_tickets add column search_name text;

create table m_ticket_words (
  word text collate "C" not null,
  ticket_id text not null references m_tickets (id) on delete cascade,
  -- The whole normalized name again, so that the matches are ranked from this table alone and
  -- only the best few rows of m_tickets are read.
  search_name text not null,
  primary key (word, ticket_id)
);
create index m_ticket_words_ticket on m_ticket_words (ticket_id);

create function m_tickets_index_words() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    if new.search_name is not distinct from old.search_name then
      return null;
    end if;
    delete from m_ticket_words where ticket_id = new.id;
  end if;
  insert into m_ticket_words (word, ticket_id, search_name)
    select distinct w, new.id, new.search_name
    from unnest(string_to_array(new.search_name, ' ')) as w where w <> '';
  return null;
end
$$;

create trigger m_tickets_words after insert or update of search_name on m_tickets
  for each row execute function m_tickets_index_words();
