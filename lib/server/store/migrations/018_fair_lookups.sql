-- Fair use of the upstream read quota by live lookups: ONE row holds the minute's whole count, each
-- user's part of it and who looked something up the minute before, so that one upsert decides a
-- lookup against all of them at once (its row lock serialises parallel lookups of every user).
-- The counts of the old per-subject rows last a minute: they are dropped, not carried over.
drop table lookup_budget;

create table lookup_budget (
  pool text primary key,
  window_start timestamptz not null,
  -- Lookups counted in the window (every user together).
  used integer not null,
  -- Lookups of each user in the window: {"<user id>": n}.
  users jsonb not null,
  -- Users who looked something up in the window before: they count as active for the fair share.
  previous_users jsonb not null
);
