-- The words a normalized name is found by: each word, and the adjacent words joined around a short
-- one (three letters or fewer: the particles and prefixes that get written apart or together:
-- "o brien" → "obrien", "jean luc" → "jeanluc", "van der berg" → "vander", "derberg",
-- "vanderberg"), so a name typed with or without its apostrophe, hyphen or inner space finds the
-- same tickets (issue 23). Only around short words, so the index grows by a few rows per name:
-- a short typed prefix ("ma") still reads a short range.
create or replace function m_ticket_search_words(search_name text) returns setof text language sql immutable as $$
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
