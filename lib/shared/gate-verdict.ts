import { DateTime } from "luxon";

/**
 * The gate's verdict: may this ticket or wristband come in today? One pure function of the event's
 * days, the instant and what the upstream says about the ticket or wristband, used by every screen
 * that shows one (ticket, wristband, name search) and by the server before a check-in, so the
 * screen and the rule that refuses a check-in never disagree.
 *
 * Which event day is "today" (`gateToday`), in order:
 * 1. the day whose [starts_at, ends_at) holds the instant: a night that runs past midnight is still
 *    that day until it closes (05:00 on Saturday is Friday's night);
 * 2. else the next day to open, when it opens on the instant's own local date (in the event's time
 *    zone): on Saturday at 09:00, after Friday's night closed at 06:00, today is Saturday's day,
 *    not open yet ("opening");
 * 3. else there is no event day today: before the first day ("before", on an earlier date), between
 *    two days with a date without one ("between"), or after the last night closed ("over").
 * Windows are compared as instants, so a change of daylight-saving time inside a night changes
 * nothing; only rule 2 reads the local date, which luxon computes in the event's zone.
 */

export interface GateRef {
  id: string;
  name: string;
}

export interface GateDay extends GateRef {
  /** The local date the day starts on (`YYYY-MM-DD`, the API's `date`). */
  date: string;
  starts_at: string;
  ends_at: string;
}

export type GateToday =
  | { kind: "open"; day: GateDay }
  | { kind: "opening"; day: GateDay }
  | { kind: "before"; next: GateDay }
  | { kind: "between"; previous: GateDay; next: GateDay }
  | { kind: "over"; last: GateDay }
  | { kind: "no_days" };

const ms = (iso: string) => Date.parse(iso);

/** The local date a day starts on: its `date`, or the date of `starts_at` in the zone if that is not one. */
function localDate(day: GateDay, timeZone: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(day.date)) return day.date;
  return DateTime.fromISO(day.starts_at, { zone: timeZone }).toISODate() ?? day.date;
}

/** Which event day is today at `now` (see the rules above). */
export function gateToday(days: readonly GateDay[], now: Date, timeZone: string): GateToday {
  const sorted = [...days].sort((a, b) => ms(a.starts_at) - ms(b.starts_at));
  const t = now.getTime();
  const open = sorted.find((d) => ms(d.starts_at) <= t && t < ms(d.ends_at));
  if (open) return { kind: "open", day: open };
  const next = sorted.find((d) => t < ms(d.starts_at));
  const previous = [...sorted].reverse().find((d) => ms(d.ends_at) <= t);
  const nowDate = DateTime.fromJSDate(now, { zone: timeZone }).toISODate();
  if (next && localDate(next, timeZone) === nowDate) return { kind: "opening", day: next };
  if (next && previous) return { kind: "between", previous, next };
  if (next) return { kind: "before", next };
  if (previous) return { kind: "over", last: previous };
  return { kind: "no_days" };
}

/** The day that counts as today, open or opening later on the same date; null when there is none. */
export function dayOfToday(today: GateToday): GateDay | null {
  return today.kind === "open" || today.kind === "opening" ? today.day : null;
}

/** Whether the person may enter the gate's chosen zone: null when the console cannot tell. */
export interface ZoneCheck {
  zone: GateRef;
  allowed: boolean | null;
}

export type RefusingStatus = "blocked" | "lost" | "released" | "pending_review";

export type GateVerdict = {
  /** Let them in: valid today, and allowed in the gate's zone when one is chosen. */
  admit: boolean;
  today: GateToday;
  /** The days the ticket or wristband is valid on, in the event's order. */
  validDays: GateRef[];
  /** The gate's zone and whether it is allowed; null when this device has chosen no zone. */
  zone: ZoneCheck | null;
} & (
  | { kind: "valid_today"; day: GateDay }
  | { kind: "not_valid_today" }
  /** The console knows no event day yet (before its first sync): it cannot tell. */
  | { kind: "days_unknown" }
  | { kind: "used"; checkedInAt: string | null; wristband: string | null }
  | { kind: "cancelled" }
  | { kind: RefusingStatus }
);
export type GateVerdictKind = GateVerdict["kind"];

/** What the gate knows about where it stands: the event's days, its zone, the instant. */
export interface GateContext {
  days: readonly GateDay[];
  timeZone: string;
  now: Date;
  /** The zone this device stands at, chosen on the device; null when none is. */
  gateZone: GateRef | null;
}

/** A ticket as the verdict needs it (the API's ticket, and the zones its type opens). */
export interface VerdictTicket {
  status: "active" | "used" | "inactive";
  valid_days: readonly GateRef[];
  extra_zones: readonly GateRef[];
  checked_in_at: string | null;
  wristband: { nfc: string } | null;
}

/** A wristband as the verdict needs it (the API's wristband). */
export interface VerdictWristband {
  status: "active" | RefusingStatus;
  valid_days: readonly string[];
  allowed_zones: readonly GateRef[];
}

/** The valid days by id, named and in the event's order (a day the event no longer has keeps its id). */
function orderedDays(
  ids: readonly string[],
  days: readonly GateDay[],
  names: Map<string, string>,
): GateRef[] {
  const order = new Map(
    [...days].sort((a, b) => ms(a.starts_at) - ms(b.starts_at)).map((d, i) => [d.id, i] as const),
  );
  return [...new Set(ids)]
    .map((id) => ({ id, name: days.find((d) => d.id === id)?.name ?? names.get(id) ?? id }))
    .sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
}

function zoneCheck(gateZone: GateRef | null, zoneIds: readonly string[] | null): ZoneCheck | null {
  if (!gateZone) return null;
  return { zone: gateZone, allowed: zoneIds === null ? null : zoneIds.includes(gateZone.id) };
}

/** Valid today or not, from the valid days; the zone decides `admit` with it. */
function dayVerdict(ctx: GateContext, validDays: GateRef[], zone: ZoneCheck | null): GateVerdict {
  const today = gateToday(ctx.days, ctx.now, ctx.timeZone);
  if (today.kind === "no_days") return { kind: "days_unknown", today, validDays, zone, admit: false };
  const day = dayOfToday(today);
  if (day && validDays.some((d) => d.id === day.id))
    return { kind: "valid_today", day, today, validDays, zone, admit: zone?.allowed !== false };
  return { kind: "not_valid_today", today, validDays, zone, admit: false };
}

/**
 * The verdict for a ticket. `typeZoneIds`: the zones its ticket type opens (with its extra zones,
 * what a ticket not yet exchanged for a wristband opens); null when the console does not know them.
 */
export function ticketVerdict(
  ticket: VerdictTicket,
  ctx: GateContext,
  typeZoneIds: readonly string[] | null,
): GateVerdict {
  const validDays = orderedDays(
    ticket.valid_days.map((d) => d.id),
    ctx.days,
    new Map(ticket.valid_days.map((d) => [d.id, d.name])),
  );
  const zoneIds = typeZoneIds === null ? null : [...typeZoneIds, ...ticket.extra_zones.map((z) => z.id)];
  const zone = zoneCheck(ctx.gateZone, zoneIds);
  const today = gateToday(ctx.days, ctx.now, ctx.timeZone);
  if (ticket.status === "inactive") return { kind: "cancelled", today, validDays, zone, admit: false };
  if (ticket.status === "used")
    return {
      kind: "used",
      checkedInAt: ticket.checked_in_at,
      wristband: ticket.wristband?.nfc ?? null,
      today,
      validDays,
      zone,
      admit: false,
    };
  return dayVerdict(ctx, validDays, zone);
}

/** The verdict for a wristband: its status first (blocked, lost…), then its days and zones. */
export function wristbandVerdict(wristband: VerdictWristband, ctx: GateContext): GateVerdict {
  const validDays = orderedDays(wristband.valid_days, ctx.days, new Map());
  const zone = zoneCheck(
    ctx.gateZone,
    wristband.allowed_zones.map((z) => z.id),
  );
  if (wristband.status !== "active") {
    const today = gateToday(ctx.days, ctx.now, ctx.timeZone);
    return { kind: wristband.status, today, validDays, zone, admit: false };
  }
  return dayVerdict(ctx, validDays, zone);
}
