import { DateTime } from "luxon";
import type { IdGenerator } from "../ids";
import type { BonusRule } from "../services/bonus-rules";
import { DEMO_BONUS_RULES, DEMO_EVENT, DEMO_TICKET_TYPES, DEMO_ZONES } from "./demo-catalog";
import { DAY, type Day, type DemoData, HOUR, iso, zoneIndex } from "./demo-model";

/** The event's catalogue: the event row, its days, zones, ticket types and bonus rules. */
export type DemoEvent = Pick<DemoData, "eventRow" | "days" | "zoneRows" | "typeRows" | "ruleRows"> & {
  bonusRules: BonusRule[];
  firstStart: number;
};

export interface DemoDay {
  /** Local date, YYYY-MM-DD. */
  date: string;
  /** "Day 1 · Thu 19 Nov". */
  name: string;
  /** 12:00 local on `date`. */
  startsAt: Date;
  /** 06:00 local the next morning. */
  endsAt: Date;
}

/**
 * The four days of the demo event: two past, today, one future. Today is the local date of `now`,
 * or the previous date before 06:00 local (so `now` is inside today's window or before it starts).
 * Each day runs from 12:00 local to 06:00 local the next morning, DST included.
 */
export function demoDays(now: Date, timeZone: string = DEMO_EVENT.timeZone): DemoDay[] {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  if (!local.isValid) throw new Error(`Invalid time zone or date: ${timeZone}`);
  const today = (local.hour < 6 ? local.minus({ days: 1 }) : local).startOf("day");
  return [-2, -1, 0, 1].map((offset, i) => {
    const date = today.plus({ days: offset });
    const next = date.plus({ days: 1 });
    const start = DateTime.fromObject(
      { year: date.year, month: date.month, day: date.day, hour: 12 },
      { zone: timeZone },
    );
    const end = DateTime.fromObject(
      { year: next.year, month: next.month, day: next.day, hour: 6 },
      { zone: timeZone },
    );
    return {
      date: date.toFormat("yyyy-MM-dd"),
      name: `Day ${i + 1} · ${date.setLocale("en-US").toFormat("ccc d LLL")}`,
      startsAt: start.toJSDate(),
      endsAt: end.toJSDate(),
    };
  });
}

/** The event, its days, zones, ticket types and bonus rules (rule windows are relative to `now`). */
export function seedEvent(
  now: number,
  ids: Record<"event" | "days" | "zones" | "ticketTypes" | "bonusRules", IdGenerator>,
  timeZone: string = DEMO_EVENT.timeZone,
): DemoEvent {
  const demo = demoDays(new Date(now), timeZone);
  const firstStart = demo[0].startsAt.getTime();
  const lastEnd = demo[demo.length - 1].endsAt.getTime();
  const eventCreated = firstStart - 120 * DAY;
  const eventRow = {
    id: ids.event.next(new Date(eventCreated)),
    name: `${DEMO_EVENT.name} ${demo[0].date.slice(0, 4)}`,
    currency: DEMO_EVENT.currency,
    time_zone: timeZone,
    bonus_cap_per_person: DEMO_EVENT.bonusCapPerPerson,
    created_at: iso(eventCreated),
  };
  const days: Day[] = demo.map((d, index) => {
    const start = d.startsAt.getTime();
    const end = d.endsAt.getTime();
    const slotStarts: number[] = [];
    const slotHours: number[] = [];
    for (let s = start; s < end; s += HOUR) {
      slotStarts.push(s);
      slotHours.push(DateTime.fromMillis(s, { zone: timeZone }).hour);
    }
    return {
      index,
      id: ids.days.next(new Date(eventCreated)),
      date: d.date,
      name: d.name,
      start,
      end,
      slotStarts,
      slotHours,
    };
  });

  const zoneRows = DEMO_ZONES.map((z) => ({ id: ids.zones.next(new Date(eventCreated)), name: z.name }));
  const typeRows = DEMO_TICKET_TYPES.map((t) => ({
    id: ids.ticketTypes.next(new Date(eventCreated)),
    name: t.name,
    zone_ids: t.zones.map((k) => zoneRows[zoneIndex(k)].id),
  }));

  const ruleWindows = DEMO_BONUS_RULES.map((r) => {
    if (r.window === "event")
      return { from: firstStart - 30 * DAY, until: lastEnd, created: eventCreated + DAY };
    if (r.window === "around_now")
      return { from: now - 2 * HOUR, until: now + 2 * HOUR, created: now - 3 * HOUR };
    return { from: firstStart, until: firstStart + 5 * HOUR, created: eventCreated + DAY };
  });
  const ruleOrder = DEMO_BONUS_RULES.map((_, i) => i).sort(
    (a, b) => ruleWindows[a].created - ruleWindows[b].created,
  );
  const ruleIds: string[] = [];
  for (const i of ruleOrder) ruleIds[i] = ids.bonusRules.next(new Date(ruleWindows[i].created));
  const bonusRules: BonusRule[] = DEMO_BONUS_RULES.map((r, i) => ({
    id: ruleIds[i],
    name: r.name,
    valid_from: new Date(ruleWindows[i].from),
    valid_until: new Date(ruleWindows[i].until),
    tiers: r.tiers.map((t) => ({ min_amount: t.min_amount, bonus_amount: t.bonus_amount })),
  }));
  const ruleRows = ruleOrder.map((i) => ({
    id: bonusRules[i].id,
    name: bonusRules[i].name,
    valid_from: iso(ruleWindows[i].from),
    valid_until: iso(ruleWindows[i].until),
    tiers: bonusRules[i].tiers,
  }));
  return { eventRow, days, zoneRows, typeRows, ruleRows, bonusRules, firstStart };
}
