import type { Day, Event, Ref, TicketType, Zone } from "../../lib/contract/resources";
import { ApiError } from "../errors";
import { type CatalogRows, catalogStore, type DayRow } from "../store/catalog-store";
import type { Db } from "../store/db";
import type { Visibility } from "../store/sql";

/**
 * The event's fixed configuration: event, days, zones, ticket types. It is written once by the
 * seeder before the service starts, so it is read once and kept in memory.
 */
export class Catalog {
  readonly dayById: Map<string, DayRow>;
  readonly zoneById: Map<string, Ref>;
  readonly typeById: Map<string, { id: string; name: string; zone_ids: string[] }>;

  constructor(readonly rows: CatalogRows) {
    this.dayById = new Map(rows.days.map((d) => [d.id, d]));
    this.zoneById = new Map(rows.zones.map((z) => [z.id, { id: z.id, name: z.name }]));
    this.typeById = new Map(rows.ticketTypes.map((t) => [t.id, t]));
  }

  get event() {
    if (!this.rows.event) throw new Error("The store holds no event: seed it (API_SEED=demo) first.");
    return this.rows.event;
  }

  dayVisible(dayId: string, v: Visibility): boolean {
    return this.dayById.has(dayId) && (!v.dayIds || v.dayIds.includes(dayId));
  }

  /** A day filter must name a day the key can see; anything else is a bad parameter. */
  requireDay(dayId: string | undefined, v: Visibility, param = "day_id"): string | undefined {
    if (dayId === undefined) return undefined;
    if (!this.dayVisible(dayId, v))
      throw new ApiError("invalid_parameter", "No event day with this id.", param);
    return dayId;
  }

  requireZone(zoneId: string | undefined, param = "zone_id"): string | undefined {
    if (zoneId === undefined) return undefined;
    if (!this.zoneById.has(zoneId)) throw new ApiError("invalid_parameter", "No zone with this id.", param);
    return zoneId;
  }

  dayRefs(ids: string[], v: Visibility): Ref[] {
    return this.sortDays(ids.filter((id) => this.dayVisible(id, v))).map((id) => ({
      id,
      name: this.dayById.get(id)!.name,
    }));
  }

  visibleDayIds(ids: string[], v: Visibility): string[] {
    return this.sortDays(ids.filter((id) => this.dayVisible(id, v)));
  }

  zoneRefs(ids: string[]): Ref[] {
    return [...new Set(ids)].flatMap((id) => {
      const zone = this.zoneById.get(id);
      return zone ? [zone] : [];
    });
  }

  private sortDays(ids: string[]): string[] {
    return [...new Set(ids)].sort(
      (a, b) => this.dayById.get(a)!.starts_at.getTime() - this.dayById.get(b)!.starts_at.getTime(),
    );
  }

  /** The day of a record: the one whose window holds the instant, else the last started, else the first. */
  dayFor(at: Date): DayRow {
    const days = this.rows.days;
    const holding = days.find((d) => d.starts_at <= at && at < d.ends_at);
    if (holding) return holding;
    const started = days.filter((d) => d.starts_at <= at);
    return started.length ? started[started.length - 1] : days[0];
  }

  toEvent(environment: Event["environment"]): Event {
    const days = this.rows.days;
    return {
      object: "event",
      id: this.event.id,
      name: this.event.name,
      currency: this.event.currency,
      time_zone: this.event.time_zone,
      starts_at: days[0].starts_at.toISOString(),
      ends_at: days[days.length - 1].ends_at.toISOString(),
      environment,
    };
  }

  toDays(v: Visibility): Day[] {
    return this.rows.days
      .filter((d) => this.dayVisible(d.id, v))
      .map((d) => ({
        object: "day",
        id: d.id,
        name: d.name,
        date: d.date,
        starts_at: d.starts_at.toISOString(),
        ends_at: d.ends_at.toISOString(),
      }));
  }

  toZones(): Zone[] {
    return this.rows.zones.map((z) => ({ object: "zone", id: z.id, name: z.name }));
  }

  toTicketTypes(v: Visibility): TicketType[] {
    return this.rows.ticketTypes
      .filter((t) => !v.ticketTypeIds || v.ticketTypeIds.includes(t.id))
      .map((t) => ({ object: "ticket_type", id: t.id, name: t.name, zones: this.zoneRefs(t.zone_ids) }));
  }
}

export async function loadCatalog(db: Db): Promise<Catalog> {
  return new Catalog(await catalogStore.load(db));
}
