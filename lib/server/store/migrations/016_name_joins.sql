-- Names match whatever their punctuation and inner spaces (issue 23: "o brien" finds "O'Brien").
--
-- The console's name normalization (lib/shared/search-text.ts) now breaks words at apostrophes too
-- ("O'Brien" → "o brien", where it used to drop them: "obrien"), and the word index holds, besides
-- each word of a name, the adjacent words joined around a short one (three letters or fewer: the
-- particles and prefixes that get written apart or together: "o brien" → "obrien", "jean luc" →
-- "jeanluc", "van der berg" → "vander", "derberg", "vanderberg"), so a name typed with or without
-- its apostrophe, hyphen or inner space finds the same tickets. Only around short words, so the
-- index grows by a few rows per name, not by every pair: a short typed prefix ("ma") still reads a
-- short range (function file m_ticket_search_words). The query side tries adjacent typed words
-- joined when the words alone find nothing ("mac donald" finds "MacDonald").

-- Names with an apostrophe are normalized differently now: forget them, and the store fills them
-- again when it opens (fillTicketSearchNames, the same function as every upsert).
update m_tickets set search_name = null
  where search_name is not null and data->'attendee'->>'name' ~ '[''’ʼ`´]';

-- Every other name keeps its normalized form and gets its joined words: the word index is rebuilt
-- by the function files (m_ticket_search_words).
-- rebuild: select ticket_words_recompute();
