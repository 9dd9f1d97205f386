import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { LiveDay, LiveEvent } from "@/lib/shared/api/sales";

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

/**
 * What the gate's verdict needs of the event, in one statement (a name search asks for it every
 * time): its zone (UTC before the first sync), its days in order, its zones by name.
 */
export async function gateCatalog(db: Queryable): Promise<{
  timeZone: string;
  days: LiveDay[];
  zones: { id: string; name: string }[];
}> {
  const [row] = await db.query<{
    time_zone: string | null;
    days: LiveDay[] | null;
    zones: { id: string; name: string }[] | null;
  }>(
    `select (select time_zone from m_event limit 1) as time_zone,
       (select json_agg(json_build_object('id', id, 'name', name, 'date', date,
          'starts_at', to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'ends_at', to_char(ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
          order by starts_at) from m_days) as days,
       (select json_agg(json_build_object('id', id, 'name', name) order by name, id) from m_zones) as zones`,
  );
  return { timeZone: row?.time_zone ?? "UTC", days: row?.days ?? [], zones: row?.zones ?? [] };
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
