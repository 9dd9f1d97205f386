-- Issue 27: walls (a TV showing the right-now figures) are their own kind of session, from a long-lived
-- token a manager issues and can revoke. Only the token's SHA-256 is kept; a revoked wall stays listed.
create table walls (
  id text primary key,
  name text not null check (length(name) between 1 and 60),
  token_hash text not null unique,
  created_by text not null,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz,
  revoked_at timestamptz,
  revoked_by text
);

-- The theme each account reads the console in (null: follow the system), like its language.
alter table users add column theme text check (theme in ('system', 'light', 'dark'));
