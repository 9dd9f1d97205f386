-- Find a ticket by its attendee's name (issue 14): an index of name words, no extension needed.
--
-- m_tickets.search_name is the attendee's name normalized by the console (lib/shared/search-text.ts:
-- lowercase, no accents, words separated by one space), written with every ticket upsert. A row
-- trigger (lib/server/store/functions/*-m-tickets-index-words.sql) keeps m_ticket_words, one row per distinct word of that name, in step. Its primary key is
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
