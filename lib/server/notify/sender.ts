import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import type { Alert } from "@/lib/shared/api/attention";
import { alertSeverities } from "@/lib/shared/api/attention";
import { eventDays, eventFormat } from "../store/event-settings";
import * as store from "../store/notify";
import { DeliveryError, deliver, type SmtpSettings } from "./channels";
import { type EventFormat, type Purpose, renderMessage } from "./messages";
import { afterQuietHours, backoffMs, MAX_ATTEMPTS } from "./schedule";
import { ackToken, type NotifyKeys, unseal } from "./secrets";

/**
 * The notification sender: each round routes the outbox (alerts opened and resolved, written by
 * the alerts table's trigger in the transaction that changed them), adds reminders and
 * escalations of alerts nobody acknowledged, then sends what is due, retrying with backoff. Its
 * whole state is in the store: a new sender on the same store (a restart) carries on where the
 * last one stopped, and the key of notify_delivery_alerts keeps each alert to one message per
 * contact point and purpose. It runs in the instance that holds the sync leadership; the row
 * locks of claimDue keep two senders from taking the same message anyway.
 */

export interface SenderOptions {
  db: Db;
  keys: NotifyKeys;
  smtp: SmtpSettings | null;
  /** The console's address, for the links in messages. */
  baseUrl: string;
  clock: () => Date;
  log?: Pick<Console, "info" | "warn" | "error">;
  /** How long an acknowledgement link stays valid. */
  ackLinkTtlMs?: number;
}

const rank = (s: string) => alertSeverities.indexOf(s as (typeof alertSeverities)[number]);
/** How long a claimed delivery (or a test being sent by its request) is left to its sender. */
export const LEASE_MS = 2 * 60_000;
const BATCH = 10;

const matches = (route: store.RouteRow, a: { kind: string; severity: string }) =>
  (route.kind === null || route.kind === a.kind) && rank(a.severity) >= rank(route.min_severity);

export interface RoundReport {
  routed: number;
  queued: number;
  sent: number;
  failed: number;
}

export class NotifySender {
  constructor(private readonly o: SenderOptions) {}

  /** One round: route, remind and escalate, send what is due. */
  async round(): Promise<RoundReport> {
    const now = this.o.clock();
    const { routed, queued } = await this.route(now);
    const more = await this.remindAndEscalate(now);
    const { sent, failed } = await this.sendDue(now);
    return { routed, queued: queued + more, sent, failed };
  }

  private async recipients(q: Queryable, route: store.RouteRow): Promise<string[]> {
    const ofRoles = await store.contactsOfRoles(q, route.roles);
    return [...new Set([...route.contact_ids, ...ofRoles])];
  }

  private async route(now: Date) {
    return this.o.db.transaction(async (tx) => {
      const events = await store.unroutedEvents(tx, 200);
      if (events.length === 0) return { routed: 0, queued: 0 };
      const routes = await store.routes(tx);
      const { timeZone } = await eventFormat(tx);
      let queued = 0;
      for (const ev of events) {
        // Each recipient once, with the first route that reaches it: an opening goes to the
        // recipients of the routes it matches; an end to every contact point told of the alert.
        const plan = new Map<string, store.RouteRow | null>();
        for (const route of routes.filter((r) => matches(r, ev)))
          for (const c of await this.recipients(tx, route)) if (!plan.has(c)) plan.set(c, route);
        if (ev.event === "resolved") {
          const told = await store.contactsTold(tx, ev.alert_id);
          for (const c of [...plan.keys()]) if (!told.includes(c)) plan.delete(c);
          for (const c of told)
            if (!plan.has(c)) plan.set(c, routes.find((r) => r.escalate_to === c) ?? null);
        }
        for (const [contactId, route] of plan) {
          const window = (route?.group_window_s ?? 0) * 1000;
          const grouped = new Date(Math.max(now.getTime(), Date.parse(ev.at) + window));
          const quiet = { from: route?.quiet_from ?? null, to: route?.quiet_to ?? null };
          const added = await store.enqueue(tx, {
            alertId: ev.alert_id,
            contactId,
            purpose: ev.event,
            kind: ev.kind,
            due: afterQuietHours(grouped, quiet, timeZone),
            now,
          });
          if (added) queued++;
        }
        await store.markRouted(tx, ev.id, now);
      }
      return { routed: events.length, queued };
    });
  }

  /** Reminders to the route's recipients, then the escalation to its next contact, while unacknowledged. */
  private async remindAndEscalate(now: Date): Promise<number> {
    return this.o.db.transaction(async (tx) => {
      const routes = (await store.routes(tx)).filter((r) => r.remind_after_min || r.escalate_after_min);
      if (routes.length === 0) return 0;
      const minutes = routes.flatMap((r) => [
        r.remind_after_min ?? Infinity,
        r.escalate_after_min ?? Infinity,
      ]);
      const alerts = await store.unacknowledgedSince(
        tx,
        new Date(now.getTime() - Math.min(...minutes) * 60_000),
      );
      if (alerts.length === 0) return 0;
      const { timeZone } = await eventFormat(tx);
      let queued = 0;
      const age = (a: Alert) => (now.getTime() - Date.parse(a.first_seen)) / 60_000;
      for (const route of routes) {
        const recipients = await this.recipients(tx, route);
        for (const a of alerts.filter((x) => matches(route, x))) {
          const told = new Set(await store.contactsTold(tx, a.id));
          const firstTold = recipients.filter((c) => told.has(c));
          // Only alerts this route made known: an alert older than the notifications stays quiet.
          if (firstTold.length === 0) continue;
          const due = afterQuietHours(now, { from: route.quiet_from, to: route.quiet_to }, timeZone);
          const add = (contactId: string, purpose: Purpose) =>
            store.enqueue(tx, { alertId: a.id, contactId, purpose, kind: a.kind, due, now });
          if (route.remind_after_min && age(a) >= route.remind_after_min)
            for (const c of firstTold) if (await add(c, "reminder")) queued++;
          if (route.escalate_to && route.escalate_after_min && age(a) >= route.escalate_after_min)
            if (await add(route.escalate_to, "escalation")) queued++;
        }
      }
      return queued;
    });
  }

  private async format(q: Queryable): Promise<EventFormat> {
    const [{ currency, timeZone }, days] = await Promise.all([eventFormat(q), eventDays(q)]);
    return { currency, timeZone, days: days.map((d) => ({ id: d.id, name: d.name })) };
  }

  private async sendDue(now: Date) {
    let sent = 0;
    let failed = 0;
    for (let batch = 0; batch < 20; batch++) {
      const claimed = await store.claimDue(this.o.db, now, LEASE_MS, BATCH);
      if (claimed.length === 0) break;
      const format = await this.format(this.o.db);
      for (const d of claimed) {
        const outcome = await this.sendOne(d, format, now);
        if (outcome === null) sent++;
        else {
          failed++;
          const retryAt = d.attempts >= MAX_ATTEMPTS ? null : new Date(now.getTime() + backoffMs(d.attempts));
          await store.markFailed(this.o.db, d.id, outcome, retryAt);
          this.o.log?.warn(
            `[notify] message ${d.id} to ${d.contact_name} failed (attempt ${d.attempts}): ${outcome}`,
          );
        }
      }
      if (claimed.length < BATCH) break;
    }
    return { sent, failed };
  }

  /** Sends one claimed message; null when it went, else the reason. */
  async sendOne(d: store.ClaimedDelivery, format: EventFormat, now: Date): Promise<string | null> {
    const contact = d.contact_id ? await store.contactById(this.o.db, d.contact_id) : null;
    if (!contact) return "the contact point was removed";
    const alerts = d.purpose === "test" ? [] : await store.alertsOfDelivery(this.o.db, d.id);
    const ttl = this.o.ackLinkTtlMs ?? 7 * 24 * 3_600_000;
    const message = renderMessage({
      purpose: d.purpose,
      alerts,
      locale: contact.locale,
      format,
      baseUrl: this.o.baseUrl,
      ackLink: (id) =>
        new URL(
          `/alerts/acknowledge?token=${ackToken(this.o.keys, id, new Date(now.getTime() + ttl))}`,
          this.o.baseUrl,
        ).toString(),
      contactName: contact.name,
    });
    try {
      const target =
        contact.channel === "email" ? contact.address! : unseal(this.o.keys, contact.secret_box!);
      await deliver(this.o.smtp, { channel: contact.channel, target }, message, d.id);
    } catch (err) {
      return err instanceof DeliveryError || err instanceof Error ? err.message : String(err);
    }
    await store.markSent(this.o.db, d.id, now);
    return null;
  }
}

/**
 * Runs rounds every `intervalMs` until stopped (the shape runSyncWhenLeader starts and stops). A
 * failed round is logged; the next one carries on from the store.
 */
export function senderLoop(sender: NotifySender, intervalMs: number, log: Pick<Console, "error">) {
  let controller: AbortController | null = null;
  let loop: Promise<void> | null = null;
  return {
    start() {
      if (loop) return;
      const c = new AbortController();
      controller = c;
      loop = (async () => {
        while (!c.signal.aborted) {
          await sender.round().catch((err) => log.error("[notify] round failed", err));
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, intervalMs);
            const wake = () => {
              clearTimeout(timer);
              resolve();
            };
            c.signal.addEventListener("abort", wake, { once: true });
          });
        }
      })();
    },
    async stop() {
      controller?.abort();
      await loop;
      loop = null;
    },
  };
}
