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

/** The event's zones, by name (a gate chooses the one it stands at). */
export function eventZones(db: Queryable): Promise<{ id: string; name: string }[]> {
  return db.query<{ id: string; name: string }>("select id, name from m_zones order by name, id");
}

/** The zones a ticket type opens (its mirrored `zones`); null when the type is not mirrored. */
export async function ticketTypeZoneIds(db: Queryable, ticketTypeId: string): Promise<string[] | null> {
  const [row] = await db.query<{ zone_ids: string[] | null }>(
    `select coalesce((select array_agg(z->>'id') from jsonb_array_elements(data->'zones') z), '{}') as zone_ids
     from m_ticket_types where id = $1`,
    [ticketTypeId],
  );
  return row ? (row.zone_ids ?? []) : null;
}
