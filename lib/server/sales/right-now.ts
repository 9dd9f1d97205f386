import "server-only";
import { DateTime } from "luxon";
import type { Queryable } from "@/lib/db/db";
import { RIGHT_NOW_MINUTES, type RightNowReport } from "@/lib/shared/api/right-now";
import type { LiveDay } from "@/lib/shared/api/sales";
import type { Actor } from "@/lib/shared/permissions";
import { mostSevereOpen } from "../alerts";
import * as store from "../store/right-now";
import { eventContext, pickDay } from "../sync/freshness";
import { terminalsNotLive } from "../terminals";

/**
 * Right now (issue 27): the last RIGHT_NOW_MINUTES event-local minutes by `occurred_at` (the
 * current minute, partial, is the last), against the same clock window of the previous event day.
 * Read from the mirror's records through their `occurred_at` indexes (store/right-now.ts); the
 * terminals' states and the open alerts are those domains' own views.
 */

const MINUTE = 60_000;
const TOP_PRODUCTS = 5;
const TOP_ALERTS = 3;

/** The window ending at `now`: from the start of the event-local minute RIGHT_NOW_MINUTES - 1 before. */
export function windowAt(now: Date, tz: string): store.Window {
  const minute = DateTime.fromJSDate(now, { zone: tz }).startOf("minute");
  return { from: minute.minus({ minutes: RIGHT_NOW_MINUTES - 1 }).toJSDate(), to: now };
}

/**
 * The same event-local clock time on the previous event day: as many calendar days back as lie
 * between the two days' dates, so 01:10 after midnight of night 2 is 01:10 after midnight of night 1.
 */
export function previousInstant(at: Date, tz: string, day: LiveDay, previous: LiveDay): Date {
  const days = DateTime.fromISO(day.date, { zone: tz }).diff(
    DateTime.fromISO(previous.date, { zone: tz }),
    "days",
  ).days;
  return DateTime.fromJSDate(at, { zone: tz })
    .minus({ days: Math.round(days) })
    .toJSDate();
}

const iso = (d: Date) => d.toISOString();

export async function rightNowReport(db: Queryable, role: Actor, now: Date): Promise<RightNowReport> {
  const ctx = await eventContext(db, now);
  const tz = ctx.event?.time_zone ?? "UTC";
  const day = pickDay(ctx, null, now);
  const index = day ? ctx.days.findIndex((d) => d.id === day.id) : -1;
  const previous = day && index > 0 ? (ctx.days[index - 1] ?? null) : null;
  const window = windowAt(now, tz);
  // The previous day's figures need its records: none while they are still being mirrored.
  const previousWalked =
    previous !== null && (ctx.mirror.days.find((d) => d.day_id === previous.id)?.walked ?? true);
  const previousWindow =
    day && previous
      ? {
          from: previousInstant(window.from, tz, day, previous),
          to: previousInstant(window.to, tz, day, previous),
        }
      : null;

  const [minutes, previousMinutes, flows, zones, products, terminals, alerts] = await Promise.all([
    store.salesPerMinute(db, window),
    previousWindow && previousWalked ? store.salesPerMinute(db, previousWindow) : Promise.resolve(null),
    store.topupFlows(db, window),
    store.scansByZone(db, window),
    store.topProducts(db, window, TOP_PRODUCTS),
    terminalsNotLive(db),
    mostSevereOpen(db, role, TOP_ALERTS),
  ]);

  const byMinute = new Map(minutes.map((m) => [Date.parse(m.minute), m]));
  const previousByMinute = new Map((previousMinutes ?? []).map((m) => [Date.parse(m.minute), m]));
  const per_minute = Array.from({ length: RIGHT_NOW_MINUTES }, (_, i) => {
    const minute = new Date(window.from.getTime() + i * MINUTE);
    const row = byMinute.get(minute.getTime());
    const before =
      day && previous
        ? previousByMinute.get(previousInstant(minute, tz, day, previous).getTime())
        : undefined;
    return {
      minute: iso(minute),
      count: row?.count ?? 0,
      total: row?.total ?? 0,
      previous_total: previousMinutes ? (before?.total ?? 0) : null,
    };
  });
  const sum = (rows: { count: number; total: number }[]) =>
    rows.reduce((s, r) => ({ count: s.count + r.count, total: s.total + r.total }), { count: 0, total: 0 });
  const flow = (direction: string, kind?: string) =>
    flows
      .filter((f) => f.direction === direction && (kind === undefined || f.kind === kind))
      .reduce((s, f) => ({ count: s.count + f.count, amount: s.amount + f.amount }), { count: 0, amount: 0 });

  return {
    ...ctx,
    now: iso(now),
    window: { from: iso(window.from), to: iso(window.to) },
    day,
    previous_day: previous,
    previous_window: previousWindow ? { from: iso(previousWindow.from), to: iso(previousWindow.to) } : null,
    sales: {
      ...sum(minutes),
      previous: previousMinutes ? sum(previousMinutes) : null,
      per_minute,
    },
    entries: {
      allowed: zones.reduce((n, z) => n + z.allowed, 0),
      denied: zones.reduce((n, z) => n + z.denied, 0),
      by_zone: zones,
    },
    topups: { paid: flow("topup", "paid"), promo: flow("topup", "promo"), withdrawals: flow("withdraw") },
    terminals,
    alerts: {
      open: alerts.open,
      top: alerts.top.map((a) => ({
        id: a.id,
        kind: a.kind,
        subject: a.subject,
        severity: a.severity,
        first_seen: a.first_seen,
        link: a.link,
      })),
    },
    top_products: products,
  };
}
