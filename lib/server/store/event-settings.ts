import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { LiveDay, LiveEvent } from "@/lib/shared/api/live";

/**
 * The event as mirrored: its name, currency and time zone (every amount and time on screen uses
 * them), and its days. Read here and nowhere else. Until the first sync the console knows no event.
 */
export async function eventSettings(db: Queryable): Promise<LiveEvent | null> {
  const [event] = await db.query<LiveEvent>("select name, currency, time_zone from m_event limit 1");
  return event ?? null;
}

/** The currency and the zone, with the defaults used before the first sync (EUR, UTC). */
export async function eventFormat(db: Queryable): Promise<{ currency: string; timeZone: string }> {
  const event = await eventSettings(db);
  return { currency: event?.currency ?? "EUR", timeZone: event?.time_zone ?? "UTC" };
}

/** The event's days, in order. */
export function eventDays(db: Queryable): Promise<LiveDay[]> {
  return db.query<LiveDay>("select id, name, date, starts_at, ends_at from m_days order by starts_at");
}
