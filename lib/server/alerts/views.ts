import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import type { Alert, AlertCount, AlertsView } from "@/lib/shared/api/attention";
import { ConsoleError } from "@/lib/shared/api/errors";
import { dateTime } from "@/lib/shared/format/time";
import { type Actor, alertKindsFor } from "@/lib/shared/permissions";
import { pushBus } from "../push";
import * as store from "../store/attention";
import { recordAudit } from "../store/audit-log";
import { eventDays, eventFormat } from "../store/event-settings";
import { mirrorFreshness } from "../sync/freshness";

/** What the alerts screen and the bell show, from the stored alerts; acknowledging one. */

export const ALERTS_ON_PAGE = 200;

const dayNames = async (db: Queryable) => (await eventDays(db)).map((d) => ({ id: d.id, name: d.name }));

/**
 * The newest ALERTS_ON_PAGE alerts of the role's kinds, open ones first, with the count of all open
 * ones; `only`: that one alert (none if its kind is not the role's), however many others are open.
 */
export async function alertsView(
  db: Queryable,
  role: Actor,
  { only, now }: { only?: string; now: Date },
): Promise<AlertsView> {
  const kinds = alertKindsFor(role);
  const [alerts, count, format, days, freshness] = await Promise.all([
    store.alertsOfKinds(db, kinds, ALERTS_ON_PAGE, only),
    store.countOpenAlerts(db, kinds),
    eventFormat(db),
    dayNames(db),
    mirrorFreshness(db, now),
  ]);
  return {
    currency: format.currency,
    time_zone: format.timeZone,
    days,
    open: count.open,
    alerts,
    freshness,
  };
}

const SEVERITY_RANK = { critical: 0, warning: 1, info: 2 } as const;

/**
 * The open alerts a role sees, most severe first (newest first within a severity): how many, and
 * the first `limit` (the right-now panel shows three).
 */
export async function mostSevereOpen(
  db: Queryable,
  role: Actor,
  limit: number,
): Promise<{ open: number; top: Alert[] }> {
  const kinds = new Set(alertKindsFor(role));
  const open = (await store.openAlerts(db)).filter((a) => kinds.has(a.kind));
  const sorted = open.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      b.last_seen.localeCompare(a.last_seen) ||
      b.id.localeCompare(a.id),
  );
  return { open: open.length, top: sorted.slice(0, limit) };
}

export function alertCount(db: Queryable, role: Actor): Promise<AlertCount> {
  return store.countOpenAlerts(db, alertKindsFor(role));
}

/**
 * Acknowledges an alert of a kind the role sees; who, when and why are kept with it. The first
 * acknowledgement stands: a later one is refused (409 `already_acknowledged`, naming the first).
 */
export async function acknowledge(
  db: Db,
  user: { id: string; username: string; role: Actor },
  id: string,
  comment: string,
  now: Date,
): Promise<Alert> {
  const outcome = await store.acknowledgeAlert(db, id, alertKindsFor(user.role), {
    userId: user.id,
    username: user.username,
    comment,
    at: now,
  });
  if (!outcome) throw new ConsoleError("not_found", `No alert ${id}.`);
  const { alert, created } = outcome;
  if (!created) {
    const { timeZone } = await eventFormat(db);
    throw new ConsoleError(
      "already_acknowledged",
      `${alert.acknowledged_by} acknowledged this alert at ${dateTime(alert.acknowledged_at ?? now, timeZone)}` +
        `${alert.ack_comment ? ` ("${alert.ack_comment}")` : ""}; that acknowledgement stands.`,
    );
  }
  await recordAudit(db, {
    user,
    action: "alerts.acknowledge",
    target: id,
    outcome: "ok",
    detail: { comment },
  });
  pushBus(db).emit("alerts");
  return alert;
}
