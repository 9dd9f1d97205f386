-- Sign-in, sessions and fair use (issue 15).
--
-- Sign-in throttling: one row per counted subject — `account:<username>` (known or not, so unknown
-- names answer like known ones), `address:<ip>` and `device:<nonce>` (a trusted browser's device
-- cookie). An attempt is counted BEFORE its password is evaluated, by one INSERT … ON CONFLICT DO
-- UPDATE … RETURNING, so parallel attempts each see their own count: at most `lock_after` of them
-- are ever evaluated per window. A success deletes the account's and the device's row.

create table sign_in_throttle (
  key text primary key,
  -- attempts counted in the current window (failures, and attempts still being evaluated)
  attempts integer not null,
  lock_after integer not null,
  -- the window ends here; reaching `lock_after` moves it to "now + the lock period"
  window_ends_at timestamptz not null,
  last_attempt_at timestamptz not null
);

-- Recent failed sign-ins, for the users screen. `username` is null when no such user exists (what
-- was typed is not kept: people type passwords into the username field).
create table sign_in_failures (
  id bigserial primary key,
  at timestamptz not null default now(),
  username text,
  address text,
  trusted_device boolean not null,
  outcome text not null check (outcome in ('wrong_password', 'locked'))
);
create index sign_in_failures_at on sign_in_failures (at desc);
create index sign_in_failures_user on sign_in_failures (username, at desc);

-- Server-side sessions: the sealed cookie carries a random session id; the store keeps only its
-- SHA-256. Deleting the row ends the session at once on every instance sharing the store.
create table sessions (
  id_hash text primary key,
  user_id text not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  address text,
  user_agent text
);
create index sessions_user on sessions (user_id);
create index sessions_expiry on sessions (expires_at);

-- Fair use of the upstream read quota: live lookups counted per fixed window, per user
-- (`user:<id>`) and per pool (`pool:staff`, `pool:all`), one upsert per lookup.
create table lookup_budget (
  subject text primary key,
  window_start timestamptz not null,
  used integer not null
);

-- The account lock moved to sign_in_throttle.
alter table users drop column failed_attempts;
alter table users drop column locked_until;
