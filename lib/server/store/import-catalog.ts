import "server-only";
import type { Queryable } from "@/lib/db/db";

/** Ticket types, days and zones from the mirror: what a CSV row may name. */
export async function importCatalog(db: Queryable) {
  const [ticketTypes, days, zones] = await Promise.all([
    db.query<{ id: string; name: string }>("select id, name from m_ticket_types order by name"),
    db.query<{ id: string; name: string; date: string }>(
      "select id, name, date from m_days order by starts_at",
    ),
    db.query<{ id: string; name: string }>("select id, name from m_zones order by name"),
  ]);
  return { ticketTypes, days, zones };
}
