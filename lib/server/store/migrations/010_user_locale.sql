-- The language each account reads the console in (issue 14: chosen per user, kept with the account).
-- Null until the user chooses one: the console then follows the browser's language.
alter table users add column locale text check (locale in ('en', 'es'));
