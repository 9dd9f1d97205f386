import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import type { Alert } from "@/lib/shared/api/attention";
import type { Channel, Delivery, RouteInput } from "@/lib/shared/api/notify";

/**
 * SQL of the notifications (migration 024): contact points, routes, the outbox the alerts
 * table's trigger writes (functions/50-notify-alert-changed.sql), deliveries and their log.
 */

export interface ContactRow {
  id: string;
  name: string;
  channel: Channel;
  address: string | null;
  secret_box: string | null;
  secret_hint: string | null;
  locale: "en" | "es";
  role: "manager" | "supervisor" | "staff" | null;
  created_by: string;
  created_at: string;
}

const CONTACT = `id::text as id, name, channel, address, secret_box, secret_hint, locale, role, created_by, created_at`;

export function contacts(q: Queryable): Promise<ContactRow[]> {
  return q.query<ContactRow>(`select ${CONTACT} from notify_contacts order by name, id`);
}

export async function contactById(q: Queryable, id: string): Promise<ContactRow | null> {
  const [row] = await q.query<ContactRow>(`select ${CONTACT} from notify_contacts where id = $1::bigint`, [
    id,
  ]);
  return row ?? null;
}

/** Inserts a contact point; null when the name is taken. */
export async function insertContact(
  q: Queryable,
  c: Omit<ContactRow, "id" | "created_at">,
  at: Date,
): Promise<ContactRow | null> {
  const [row] = await q.query<ContactRow>(
    `insert into notify_contacts (name, channel, address, secret_box, secret_hint, locale, role, created_by, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (name) do nothing returning ${CONTACT}`,
    [
      c.name,
      c.channel,
      c.address,
      c.secret_box,
      c.secret_hint,
      c.locale,
      c.role,
      c.created_by,
      at.toISOString(),
    ],
  );
  return row ?? null;
}

/** Removes a contact point and its place in routes; answers its name, or null. */
export async function deleteContact(db: Db, id: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ name: string }>(
      "delete from notify_contacts where id = $1::bigint returning name",
      [id],
    );
    if (!row) return null;
    await tx.query("update notify_routes set contact_ids = array_remove(contact_ids, $1::bigint)", [id]);
    return row.name;
  });
}

export interface RouteRow {
  id: string;
  kind: string | null;
  min_severity: "info" | "warning" | "critical";
  contact_ids: string[];
  roles: ("manager" | "supervisor" | "staff")[];
  group_window_s: number;
  quiet_from: number | null;
  quiet_to: number | null;
  remind_after_min: number | null;
  escalate_after_min: number | null;
  escalate_to: string | null;
}

const ROUTE = `id::text as id, kind, min_severity, array(select x::text from unnest(contact_ids) x) as contact_ids,
  roles, group_window_s, quiet_from, quiet_to, remind_after_min, escalate_after_min, escalate_to::text as escalate_to`;

export function routes(q: Queryable): Promise<RouteRow[]> {
  return q.query<RouteRow>(`select ${ROUTE} from notify_routes order by id`);
}

export async function insertRoute(q: Queryable, r: RouteInput, by: string, at: Date): Promise<RouteRow> {
  const [row] = await q.query<RouteRow>(
    `insert into notify_routes (kind, min_severity, contact_ids, roles, group_window_s, quiet_from, quiet_to,
       remind_after_min, escalate_after_min, escalate_to, created_by, created_at)
     values ($1, $2, $3::bigint[], $4::text[], $5, $6, $7, $8, $9, $10::bigint, $11, $12) returning ${ROUTE}`,
    [
      r.kind,
      r.min_severity,
      r.contact_ids,
      r.roles,
      r.group_window_s,
      r.quiet_from,
      r.quiet_to,
      r.remind_after_min,
      r.escalate_after_min,
      r.escalate_to,
      by,
      at.toISOString(),
    ],
  );
  return row!;
}

export async function deleteRoute(q: Queryable, id: string): Promise<boolean> {
  const rows = await q.query("delete from notify_routes where id = $1::bigint returning id", [id]);
  return rows.length > 0;
}

/** Of `ids`, those that are contact points. */
export async function existingContactIds(q: Queryable, ids: string[]): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    "select id::text as id from notify_contacts where id = any($1::bigint[])",
    [ids],
  );
  return rows.map((r) => r.id);
}

// --- the outbox and the deliveries ---------------------------------------------------------

export interface OutboxEvent {
  id: string;
  alert_id: string;
  event: "opened" | "resolved";
  at: string;
  kind: string;
  severity: "info" | "warning" | "critical";
}

/** Events not routed yet, locked for this transaction (another sender skips them). */
export function unroutedEvents(q: Queryable, limit: number): Promise<OutboxEvent[]> {
  return q.query<OutboxEvent>(
    `select o.id::text as id, o.alert_id::text as alert_id, o.event, o.at, a.kind, a.severity
     from notify_outbox o join alerts a on a.id = o.alert_id
     where o.routed_at is null order by o.id limit $1
     for update of o skip locked`,
    [limit],
  );
}

export async function markRouted(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query("update notify_outbox set routed_at = $2 where id = $1::bigint", [id, at.toISOString()]);
}

/** Contact points that were sent (or are to be sent) an alert's opening, reminder or escalation. */
export async function contactsTold(q: Queryable, alertId: string): Promise<string[]> {
  const rows = await q.query<{ contact_id: string }>(
    `select distinct contact_id::text as contact_id from notify_delivery_alerts
     where alert_id = $1::bigint and purpose in ('opened', 'reminder', 'escalation') order by 1`,
    [alertId],
  );
  return rows.map((r) => r.contact_id);
}

/** The contact points of roles. */
export async function contactsOfRoles(q: Queryable, roles: string[]): Promise<string[]> {
  if (roles.length === 0) return [];
  const rows = await q.query<{ id: string }>(
    "select id::text as id from notify_contacts where role = any($1::text[]) order by id",
    [roles],
  );
  return rows.map((r) => r.id);
}

/**
 * Puts an alert in a message to a contact point, at most once per alert, contact point and purpose
 * (the key of notify_delivery_alerts): into the one of the same kind and purpose not sent yet (a
 * burst is one message), else a new one due at `due`. Answers whether it was added.
 */
export async function enqueue(
  q: Queryable,
  e: { alertId: string; contactId: string; purpose: string; kind: string; due: Date; now: Date },
): Promise<boolean> {
  const [seen] = await q.query(
    "select 1 from notify_delivery_alerts where alert_id = $1::bigint and contact_id = $2::bigint and purpose = $3",
    [e.alertId, e.contactId, e.purpose],
  );
  if (seen) return false;
  const [open] = await q.query<{ id: string }>(
    `select id::text as id from notify_deliveries
     where contact_id = $1::bigint and purpose = $2 and kind = $3 and status = 'pending' and attempts = 0
     order by id desc limit 1
     for update skip locked`,
    [e.contactId, e.purpose, e.kind],
  );
  // Locked until this transaction ends, so no sender claims it (claimDue skips locked rows) and
  // sends it without the alert added below; one a sender is claiming is skipped: a new message.
  let deliveryId = open?.id;
  const made = !deliveryId;
  if (!deliveryId) {
    const [row] = await q.query<{ id: string }>(
      `insert into notify_deliveries (contact_id, contact_name, purpose, kind, status, created_at, due_at)
       select id, name, $2, $3, 'pending', $4, $5 from notify_contacts where id = $1::bigint
       returning id::text as id`,
      [e.contactId, e.purpose, e.kind, e.now.toISOString(), e.due.toISOString()],
    );
    if (!row) return false;
    deliveryId = row.id;
  }
  // Another sender's transaction may have put it in a message meanwhile: the key keeps one.
  const added = await q.query(
    `insert into notify_delivery_alerts (alert_id, contact_id, purpose, delivery_id)
     values ($1::bigint, $2::bigint, $3, $4::bigint) on conflict do nothing returning delivery_id`,
    [e.alertId, e.contactId, e.purpose, deliveryId],
  );
  if (added.length === 0 && made)
    await q.query("delete from notify_deliveries where id = $1::bigint", [deliveryId]);
  return added.length > 0;
}

/** Open, unacknowledged alerts first seen at or before `before` (reminders and escalations). */
export function unacknowledgedSince(q: Queryable, before: Date): Promise<Alert[]> {
  return q.query<Alert>(
    `select id::text as id, kind, subject, severity, state, first_seen, last_seen, resolved_at, figures, link,
       acknowledged_by, acknowledged_at, ack_comment
     from alerts where state = 'open' and acknowledged_at is null and first_seen <= $1 order by id`,
    [before.toISOString()],
  );
}

export interface ClaimedDelivery {
  id: string;
  contact_id: string | null;
  contact_name: string;
  purpose: "opened" | "reminder" | "escalation" | "resolved" | "test";
  kind: string | null;
  attempts: number;
}

/**
 * Takes up to `limit` due deliveries for sending: marks them `sending` with a lease (a process that
 * dies mid-send leaves them to be taken again when it ends) and counts the attempt. Rows another
 * instance holds are skipped (row locks), so two senders never take the same message.
 */
export function claimDue(
  q: Queryable,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  return q.query<ClaimedDelivery>(
    `update notify_deliveries d set status = 'sending', attempts = d.attempts + 1, lease_until = $2
     where d.id in (
       select id from notify_deliveries
       where (status in ('pending', 'retrying') and due_at <= $1) or (status = 'sending' and lease_until <= $1)
       order by due_at, id limit $3 for update skip locked)
     returning d.id::text as id, d.contact_id::text as contact_id, d.contact_name, d.purpose, d.kind, d.attempts`,
    [now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), limit],
  );
}

export function alertsOfDelivery(q: Queryable, deliveryId: string): Promise<Alert[]> {
  return q.query<Alert>(
    `select a.id::text as id, a.kind, a.subject, a.severity, a.state, a.first_seen, a.last_seen, a.resolved_at,
       a.figures, a.link, a.acknowledged_by, a.acknowledged_at, a.ack_comment
     from notify_delivery_alerts x join alerts a on a.id = x.alert_id
     where x.delivery_id = $1::bigint order by a.id`,
    [deliveryId],
  );
}

export async function markSent(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query(
    "update notify_deliveries set status = 'sent', sent_at = $2, lease_until = null, last_error = null where id = $1::bigint",
    [id, at.toISOString()],
  );
}

/** A failed attempt: retried at `retryAt`, or failed for good when null. */
export async function markFailed(
  q: Queryable,
  id: string,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await q.query(
    `update notify_deliveries set status = $2, due_at = coalesce($3, due_at), last_error = $4, lease_until = null
     where id = $1::bigint`,
    [id, retryAt ? "retrying" : "failed", retryAt?.toISOString() ?? null, error.slice(0, 500)],
  );
}

/**
 * A test message, logged with the deliveries (of no alert), being sent by the request that made it:
 * leased like a claimed delivery, so that the sender does not take it as one a dead process left.
 */
export async function insertTestDelivery(
  q: Queryable,
  contact: ContactRow,
  at: Date,
  leaseMs: number,
): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `insert into notify_deliveries (contact_id, contact_name, purpose, status, created_at, due_at, attempts, lease_until)
     values ($1::bigint, $2, 'test', 'sending', $3, $3, 1, $4) returning id::text as id`,
    [contact.id, contact.name, at.toISOString(), new Date(at.getTime() + leaseMs).toISOString()],
  );
  return row!.id;
}

const DELIVERY = `d.id::text as id, d.contact_name, c.channel, d.purpose, d.status, d.attempts, d.created_at, d.due_at,
  d.sent_at, d.last_error, (select count(*)::int from notify_delivery_alerts y where y.delivery_id = d.id) as alerts`;

export async function deliveryById(q: Queryable, id: string): Promise<Delivery | null> {
  const [row] = await q.query<Delivery>(
    `select ${DELIVERY} from notify_deliveries d left join notify_contacts c on c.id = d.contact_id
     where d.id = $1::bigint`,
    [id],
  );
  return row ?? null;
}

/** Every message made of an alert, newest first. */
export function deliveriesOfAlert(q: Queryable, alertId: string): Promise<Delivery[]> {
  return q.query<Delivery>(
    `select ${DELIVERY} from notify_deliveries d left join notify_contacts c on c.id = d.contact_id
     where d.id in (select delivery_id from notify_delivery_alerts where alert_id = $1::bigint)
     order by d.created_at desc, d.id desc`,
    [alertId],
  );
}

export async function alertKindOf(q: Queryable, alertId: string): Promise<string | null> {
  const [row] = await q.query<{ kind: string }>("select kind from alerts where id = $1::bigint", [alertId]);
  return row?.kind ?? null;
}
