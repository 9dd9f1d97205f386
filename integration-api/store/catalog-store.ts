import type { Queryable } from "./db";

export interface EventRow {
  id: string;
  name: string;
  currency: string;
  time_zone: string;
  bonus_cap_per_person: number;
}
export interface DayRow {
  id: string;
  name: string;
  date: string;
  starts_at: Date;
  ends_at: Date;
}
export interface ZoneRow {
  id: string;
  name: string;
}
export interface TicketTypeRow {
  id: string;
  name: string;
  zone_ids: string[];
}

export interface CatalogRows {
  event: EventRow | undefined;
  days: DayRow[];
  zones: ZoneRow[];
  ticketTypes: TicketTypeRow[];
}

export const catalogStore = {
  async load(db: Queryable): Promise<CatalogRows> {
    const [event] = await db.query<EventRow>("select * from event limit 1");
    // Day windows are compared with instants all the time: kept as Dates in the catalog.
    const days = (
      await db.query<Omit<DayRow, "starts_at" | "ends_at"> & { starts_at: string; ends_at: string }>(
        "select id, name, to_char(date, 'YYYY-MM-DD') as date, starts_at, ends_at from days order by starts_at, id",
      )
    ).map((d) => ({ ...d, starts_at: new Date(d.starts_at), ends_at: new Date(d.ends_at) }));
    const zones = await db.query<ZoneRow>("select id, name from zones order by id");
    const ticketTypes = await db.query<TicketTypeRow>(
      "select id, name, zone_ids from ticket_types order by id",
    );
    return { event, days, zones, ticketTypes };
  },
};
