-- Names match whatever their punctuation and inner spaces (issue 23: "o brien" finds "O'Brien").
--
-- The console's name normalization (lib/shared/search-text.ts) now breaks words at apostrophes too
-- ("O'Brien" → "o brien", where it used to drop them: "obrien"), and the word index holds, besides
-- each word of a name, the adjacent words joined around a short one (three letters or fewer: the
-- particles and prefixes that get written apart or together: "o brien" → "obrien", "jean luc" →
-- "jeanluc", "van der berg" → "vander", "derberg", "vanderberg"), so a name typed with or without
-- its apostrophe, hyphen or inner space finds the same tickets. Only around short words, so the
-- index grows by a few rows per name, not by every pair: a short typed prefix ("ma") still reads a
-- short range. The query side tries adjacent typed words joined when the words alone find nothing
-- ("mac donald" finds "MacDonald").

create function m_ticket_search_words(search_name text) returns setof text language sql immutable as $$
  with w as (
    select word, i from unnest(string_to_array(search_name, ' ')) with ordinality as x(word, i) where word <> ''
  )
  select a.word from w a
  union
  select a.word || b.word from w a join w b on b.i = a.i + 1
    where length(a.word) <= 3 or length(b.word) <= 3
  union
  select a.word || b.word || c.word from w a join w b on b.i = a.i + 1 join w c on c.i = b.i + 1
    where length(b.word) <= 3
$$;

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

-- Names with an apostrophe are normalized differently now: forget them, and the store fills them
-- again when it opens (fillTicketSearchNames, the same function as every upsert).
update m_tickets set search_name = null
  where search_name is not null and data->'attendee'->>'name' ~ '[''’ʼ`´]';

-- Every other name keeps its normalized form and gets its joined words.
delete from m_ticket_words;
insert into m_ticket_words (word, ticket_id, search_name)
  select distinct w, t.id, t.search_name
  from m_tickets t, m_ticket_search_words(t.search_name) as w
  where t.search_name is not null;
