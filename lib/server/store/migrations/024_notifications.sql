-- Alerts that find people (issue 29): contact points, routes, the outbox the alerts table's
-- trigger writes in the transaction that opens or resolves an alert (functions/50-notify-alert-changed.sql),
-- and the deliveries the sender makes of it, with their log.

-- Where messages go: an e-mail address, or a webhook (generic JSON or Slack-compatible). The
-- webhook's URL carries its token: it is kept sealed (AES-256-GCM, lib/server/notify/secrets.ts)
-- and only a hint (scheme and host) is ever shown back. `role` says whom the contact reaches (the
-- manager on duty's address…): a route to a role reaches every contact point of that role.
create table notify_contacts (
  id bigserial primary key,
  name text not null unique,
  channel text not null check (channel in ('email', 'webhook', 'slack')),
  address text,
  secret_box text,
  secret_hint text,
  locale text not null check (locale in ('en', 'es')),
  role text check (role in ('manager', 'supervisor', 'staff')),
  created_by text not null,
  created_at timestamptz not null,
  check ((channel = 'email') = (address is not null)),
  check ((channel = 'email') = (secret_box is null))
);

-- Which alerts go where: a kind (null: every kind) from a severity up, to contact points and to
-- the contact points of roles; grouped within a window; held during quiet hours (minutes of the day
-- in the event's time zone); a reminder, then an escalation to another contact, while unacknowledged.
create table notify_routes (
  id bigserial primary key,
  kind text,
  min_severity text not null check (min_severity in ('info', 'warning', 'critical')),
  contact_ids bigint[] not null default '{}',
  roles text[] not null default '{}',
  group_window_s integer not null check (group_window_s between 0 and 3600),
  quiet_from integer check (quiet_from between 0 and 1439),
  quiet_to integer check (quiet_to between 0 and 1439),
  remind_after_min integer check (remind_after_min between 1 and 1440),
  escalate_after_min integer check (escalate_after_min between 1 and 1440),
  escalate_to bigint references notify_contacts (id) on delete set null,
  created_by text not null,
  created_at timestamptz not null,
  check ((quiet_from is null) = (quiet_to is null))
);

-- The outbox: one row per alert opened and per alert resolved, written by the alerts table's
-- trigger; the sender routes each once (routed_at).
create table notify_outbox (
  id bigserial primary key,
  alert_id bigint not null references alerts (id) on delete cascade,
  event text not null check (event in ('opened', 'resolved')),
  at timestamptz not null,
  routed_at timestamptz,
  unique (alert_id, event)
);
create index notify_outbox_unrouted on notify_outbox (id) where routed_at is null;

-- One message to one contact point (alerts of one kind grouped in it), with its attempts.
create table notify_deliveries (
  id bigserial primary key,
  contact_id bigint references notify_contacts (id) on delete set null,
  contact_name text not null,
  purpose text not null check (purpose in ('opened', 'reminder', 'escalation', 'resolved', 'test')),
  kind text,
  status text not null check (status in ('pending', 'sending', 'sent', 'retrying', 'failed')),
  created_at timestamptz not null,
  due_at timestamptz not null,
  attempts integer not null default 0,
  lease_until timestamptz,
  last_error text,
  sent_at timestamptz
);
create index notify_deliveries_due on notify_deliveries (due_at) where status in ('pending', 'sending', 'retrying');

-- At most one message per alert, contact point and purpose: the primary key says so.
create table notify_delivery_alerts (
  alert_id bigint not null references alerts (id) on delete cascade,
  contact_id bigint not null,
  purpose text not null,
  delivery_id bigint not null references notify_deliveries (id) on delete cascade,
  primary key (alert_id, contact_id, purpose)
);
create index notify_delivery_alerts_delivery on notify_delivery_alerts (delivery_id);
