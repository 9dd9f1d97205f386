-- Staff tools: the audit log of every write, and ticket imports that resume without duplicates.

create table audit_log (
  id bigserial primary key,
  at timestamptz not null default now(),
  username text not null,
  role text not null,
  action text not null,
  target text,
  idempotency_key text,
  upstream_request_id text,
  outcome text not null,
  detail jsonb not null default '{}'::jsonb
);
create index audit_log_at on audit_log (at desc);

-- One import: the validated tickets are kept here, so a resumed import sends exactly the same chunks.
create table import_jobs (
  id text primary key,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  username text not null,
  file_name text not null,
  total_rows integer not null,
  status text not null check (status in ('pending', 'running', 'failed', 'completed'))
);

-- One chunk of at most 500 tickets with its Idempotency-Key, kept until the chunk succeeds.
create table import_chunks (
  job_id text not null references import_jobs (id) on delete cascade,
  seq integer not null,
  idempotency_key text not null,
  first_row integer not null,
  row_count integer not null,
  tickets jsonb not null,
  status text not null check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  created_count integer,
  last_error jsonb,
  upstream_request_id text,
  sent_at timestamptz,
  primary key (job_id, seq)
);
