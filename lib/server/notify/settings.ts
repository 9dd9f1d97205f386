import "server-only";
import type { Db } from "@/lib/db/db";
import type { AlertKind } from "@/lib/shared/api/attention";
import { ConsoleError } from "@/lib/shared/api/errors";
import type {
  ContactPoint,
  Delivery,
  DeliveryLog,
  NotifySettings,
  Route,
  RouteInput,
} from "@/lib/shared/api/notify";
import { type Actor, alertKindsFor, type Role } from "@/lib/shared/permissions";
import type { DashboardConfig } from "../config";
import { getDashboard } from "../dashboard";
import { recordAudit } from "../store/audit-log";
import { eventDays, eventFormat } from "../store/event-settings";
import * as store from "../store/notify";
import { smtpSettings } from "./channels";
import { notifyKeys, readAckToken, seal, urlHint } from "./secrets";
import { LEASE_MS, NotifySender } from "./sender";

/** The manager's screen: contact points and routes (each change audited), a test, an alert's log. */

/** Who changes the settings (audited): a signed-in account (the permission table keeps walls out). */
type Author = { username: string; role: Actor };

export function publicContact(c: store.ContactRow): ContactPoint {
  return {
    id: c.id,
    name: c.name,
    channel: c.channel,
    shown_target: c.channel === "email" ? (c.address ?? "") : (c.secret_hint ?? "…"),
    locale: c.locale,
    role: c.role,
    created_by: c.created_by,
    created_at: c.created_at,
  };
}

export async function notifySettings(db: Db, config: DashboardConfig): Promise<NotifySettings> {
  const [contacts, routes, format] = await Promise.all([
    store.contacts(db),
    store.routes(db),
    eventFormat(db),
  ]);
  return {
    contacts: contacts.map(publicContact),
    routes: routes.map((r) => ({ ...r, kind: r.kind as Route["kind"] })),
    smtp_configured: smtpSettings(config) !== null,
    time_zone: format.timeZone,
  };
}

export async function addContact(
  db: Db,
  config: DashboardConfig,
  user: Author,
  input: {
    name: string;
    channel: ContactPoint["channel"];
    target: string;
    locale: "en" | "es";
    role: Role | null;
  },
  now: Date,
): Promise<ContactPoint> {
  const keys = notifyKeys(config);
  const email = input.channel === "email";
  const row = await db.transaction(async (tx) => {
    const made = await store.insertContact(
      tx,
      {
        name: input.name,
        channel: input.channel,
        address: email ? input.target : null,
        secret_box: email ? null : seal(keys, input.target),
        secret_hint: email ? null : urlHint(input.target),
        locale: input.locale,
        role: input.role,
        created_by: user.username,
      },
      now,
    );
    if (!made) return null;
    // The audit keeps what was added, never the webhook's URL.
    await recordAudit(tx, {
      user,
      action: "notify.add_contact",
      target: made.name,
      outcome: "ok",
      detail: { channel: made.channel, shown: publicContact(made).shown_target, role: made.role },
    });
    return made;
  });
  if (!row)
    throw new ConsoleError("invalid_parameter", `A contact point is already named "${input.name}".`, {
      param: "name",
    });
  return publicContact(row);
}

export async function removeContact(db: Db, user: Author, id: string): Promise<{ ok: true }> {
  const name = await store.deleteContact(db, id);
  if (name === null) throw new ConsoleError("not_found", `No contact point ${id}.`);
  await recordAudit(db, { user, action: "notify.remove_contact", target: name, outcome: "ok" });
  return { ok: true };
}

export async function addRoute(db: Db, user: Author, input: RouteInput, now: Date): Promise<Route> {
  const named = [...input.contact_ids, ...(input.escalate_to ? [input.escalate_to] : [])];
  const known = await store.existingContactIds(db, named);
  const unknown = named.filter((id) => !known.includes(id));
  if (unknown.length)
    throw new ConsoleError("invalid_parameter", `No contact point ${unknown.join(", ")}.`, {
      param: "contact_ids",
    });
  const row = await db.transaction(async (tx) => {
    const made = await store.insertRoute(tx, input, user.username, now);
    await recordAudit(tx, {
      user,
      action: "notify.add_route",
      target: made.id,
      outcome: "ok",
      detail: { ...input },
    });
    return made;
  });
  return { ...row, kind: row.kind as Route["kind"] };
}

export async function removeRoute(db: Db, user: Author, id: string): Promise<{ ok: true }> {
  if (!(await store.deleteRoute(db, id))) throw new ConsoleError("not_found", `No route ${id}.`);
  await recordAudit(db, { user, action: "notify.remove_route", target: id, outcome: "ok" });
  return { ok: true };
}

/** The console's address for links in messages: PUBLIC_URL, else the sandbox's. */
export const linkBase = (config: DashboardConfig) => config.PUBLIC_URL ?? "http://localhost:3000";

export function senderFor(
  db: Db,
  config: DashboardConfig,
  clock: () => Date,
  log?: Pick<Console, "info" | "warn" | "error">,
) {
  return new NotifySender({
    db,
    keys: notifyKeys(config),
    smtp: smtpSettings(config),
    baseUrl: linkBase(config),
    clock,
    log,
  });
}

/** Sends a test to a contact point now (logged with the deliveries, and audited); answers how it went. */
export async function sendTest(
  db: Db,
  config: DashboardConfig,
  user: Author,
  id: string,
  now: Date,
): Promise<Delivery> {
  const contact = await store.contactById(db, id);
  if (!contact) throw new ConsoleError("not_found", `No contact point ${id}.`);
  const deliveryId = await store.insertTestDelivery(db, contact, now, LEASE_MS);
  const sender = senderFor(db, config, () => now);
  const [{ currency, timeZone }, days] = await Promise.all([eventFormat(db), eventDays(db)]);
  const claimed: store.ClaimedDelivery = {
    id: deliveryId,
    contact_id: contact.id,
    contact_name: contact.name,
    purpose: "test",
    kind: null,
    attempts: 1,
  };
  const error = await sender.sendOne(claimed, { currency, timeZone, days }, now);
  if (error !== null) await store.markFailed(db, deliveryId, error, null);
  await recordAudit(db, {
    user,
    action: "notify.test_contact",
    target: contact.name,
    outcome: error === null ? "ok" : "failed",
    detail: error === null ? {} : { reason: error },
  });
  return (await store.deliveryById(db, deliveryId))!;
}

/** An alert's delivery log, for a role that sees its kind. */
export async function deliveryLog(db: Db, role: Actor, alertId: string): Promise<DeliveryLog> {
  const kind = await store.alertKindOf(db, alertId);
  if (kind === null || !alertKindsFor(role).includes(kind as AlertKind))
    throw new ConsoleError("not_found", `No alert ${alertId}.`);
  return { deliveries: await store.deliveriesOfAlert(db, alertId) };
}

/** The alert an acknowledgement link names, or why not (a bad signature, an expired link). */
export async function acknowledgeLink(token: string) {
  const { config, clock } = await getDashboard();
  const read = readAckToken(notifyKeys(config), token, clock());
  return "error" in read
    ? { ok: false as const, error: read.error }
    : { ok: true as const, alertId: read.alertId };
}
