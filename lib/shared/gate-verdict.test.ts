import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  dayOfToday,
  type GateContext,
  type GateDay,
  gateToday,
  ticketVerdict,
  type VerdictTicket,
  type VerdictWristband,
  wristbandVerdict,
} from "./gate-verdict";

const ZONE = "Europe/Madrid";

/** An event day like the demo's: from `open` on `date` to `close` on the next date, local time. */
function day(n: number, date: string, open = "12:00", close = "06:00", nextDate = true): GateDay {
  const start = DateTime.fromISO(`${date}T${open}`, { zone: ZONE });
  const endDate = nextDate ? start.plus({ days: 1 }).toISODate() : date;
  const end = DateTime.fromISO(`${endDate}T${close}`, { zone: ZONE });
  return {
    id: `day${n}`,
    name: `Day ${n}`,
    date,
    starts_at: start.toUTC().toISO()!,
    ends_at: end.toUTC().toISO()!,
  };
}

/** An instant given as local time in the event's zone. */
const local = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).toJSDate();
const utc = (iso: string) => new Date(iso);

// A four-day festival, each day 12:00 to 06:00 the next morning (Madrid, summer time).
const DAYS = [day(1, "2026-07-10"), day(2, "2026-07-11"), day(3, "2026-07-12"), day(4, "2026-07-13")];
const [D1, D2, D3, D4] = DAYS as [GateDay, GateDay, GateDay, GateDay];

const todayAt = (at: Date, days: GateDay[] = DAYS) => gateToday(days, at, ZONE);

describe("which event day is today", () => {
  it("is the day whose window holds the instant, its start included and its end not", () => {
    expect(todayAt(local("2026-07-11T12:00"))).toEqual({ kind: "open", day: D2 });
    expect(todayAt(local("2026-07-11T20:00"))).toEqual({ kind: "open", day: D2 });
    expect(todayAt(local("2026-07-12T05:59:59.999"))).toEqual({ kind: "open", day: D2 });
    expect(todayAt(local("2026-07-12T06:00"))).toEqual({ kind: "opening", day: D3 });
  });

  it("a night that runs past midnight is still that day: 03:00 on Sunday is Saturday's night", () => {
    expect(todayAt(local("2026-07-12T00:00"))).toEqual({ kind: "open", day: D2 });
    expect(todayAt(local("2026-07-12T03:00"))).toEqual({ kind: "open", day: D2 });
  });

  it("between a night's close and the next opening on that date, today is the coming day (not open yet)", () => {
    const morning = todayAt(local("2026-07-12T09:00"));
    expect(morning).toEqual({ kind: "opening", day: D3 });
    expect(dayOfToday(morning)).toBe(D3);
  });

  it("the first day: on its date before it opens it is today; on an earlier date the event has not begun", () => {
    expect(todayAt(local("2026-07-10T08:00"))).toEqual({ kind: "opening", day: D1 });
    expect(todayAt(local("2026-07-10T00:00"))).toEqual({ kind: "opening", day: D1 });
    const eve = todayAt(local("2026-07-09T23:59"));
    expect(eve).toEqual({ kind: "before", next: D1 });
    expect(dayOfToday(eve)).toBeNull();
  });

  it("the last day: open through its night; once that closes the event is over, whatever the date", () => {
    expect(todayAt(local("2026-07-14T05:00"))).toEqual({ kind: "open", day: D4 });
    const over = todayAt(local("2026-07-14T06:00"));
    expect(over).toEqual({ kind: "over", last: D4 });
    expect(dayOfToday(over)).toBeNull();
    expect(todayAt(local("2026-08-01T12:00"))).toEqual({ kind: "over", last: D4 });
  });

  it("a date with no event day between two days has no today", () => {
    const gap = [day(1, "2026-07-10"), day(3, "2026-07-12")];
    expect(todayAt(local("2026-07-11T15:00"), gap)).toEqual({
      kind: "between",
      previous: gap[0],
      next: gap[1],
    });
    expect(todayAt(local("2026-07-12T10:00"), gap)).toEqual({ kind: "opening", day: gap[1] });
  });

  it("reads the days in time order, whatever order they come in", () => {
    expect(todayAt(local("2026-07-12T03:00"), [D4, D2, D1, D3])).toEqual({ kind: "open", day: D2 });
  });

  it("an event without days has no today", () => {
    expect(todayAt(local("2026-07-12T03:00"), [])).toEqual({ kind: "no_days" });
  });

  describe("across a change of daylight-saving time", () => {
    // Madrid: 25 October 2026 03:00 CEST → 02:00 CET; 29 March 2026 02:00 CET → 03:00 CEST.
    const autumn = [day(1, "2026-10-24"), day(2, "2026-10-25")];
    const spring = [day(1, "2026-03-28"), day(2, "2026-03-29")];

    it("a night whose clocks go back is one day, both 02:30s included, and closes at 06:00 local", () => {
      expect(autumn[0]!.ends_at).toBe("2026-10-25T05:00:00.000Z");
      expect(todayAt(utc("2026-10-25T00:30:00Z"), autumn)).toEqual({ kind: "open", day: autumn[0] }); // 02:30 CEST
      expect(todayAt(utc("2026-10-25T01:30:00Z"), autumn)).toEqual({ kind: "open", day: autumn[0] }); // 02:30 CET
      expect(todayAt(utc("2026-10-25T04:59:59Z"), autumn)).toEqual({ kind: "open", day: autumn[0] }); // 05:59 CET
      expect(todayAt(utc("2026-10-25T05:00:00Z"), autumn)).toEqual({ kind: "opening", day: autumn[1] });
    });

    it("a night whose clocks go forward closes at 06:00 local, an hour earlier in UTC", () => {
      expect(spring[0]!.ends_at).toBe("2026-03-29T04:00:00.000Z");
      expect(todayAt(utc("2026-03-29T01:30:00Z"), spring)).toEqual({ kind: "open", day: spring[0] }); // 03:30 CEST
      expect(todayAt(utc("2026-03-29T04:00:00Z"), spring)).toEqual({ kind: "opening", day: spring[1] });
    });

    it("the local date, not the UTC one, decides which day is coming: 00:30 local is already the next date", () => {
      // Days that close before midnight: after 23:00 there is no open day.
      const evenings = [
        day(1, "2026-03-28", "12:00", "23:00", false),
        day(2, "2026-03-29", "12:00", "23:00", false),
      ];
      // 23:30Z on the 28th is 00:30 CET on the 29th: today is the 29th's day, opening at 12:00.
      expect(todayAt(utc("2026-03-28T23:30:00Z"), evenings)).toEqual({ kind: "opening", day: evenings[1] });
      // 22:30Z on the 28th is 23:30 local on the 28th: between the two days.
      expect(todayAt(utc("2026-03-28T22:30:00Z"), evenings)).toEqual({
        kind: "between",
        previous: evenings[0],
        next: evenings[1],
      });
    });
  });
});

const ref = (d: GateDay) => ({ id: d.id, name: d.name });
const GENERAL = { id: "zone-general", name: "General Area" };
const VIP = { id: "zone-vip", name: "VIP Lounge" };
const CAMPING = { id: "zone-camping", name: "Camping" };

const ctx = (at: Date, gateZone: GateContext["gateZone"] = null): GateContext => ({
  days: DAYS,
  timeZone: ZONE,
  now: at,
  gateZone,
});

function ticket(overrides: Partial<VerdictTicket> = {}): VerdictTicket {
  return {
    status: "active",
    valid_days: [ref(D2)],
    extra_zones: [],
    checked_in_at: null,
    wristband: null,
    ...overrides,
  };
}

describe("a ticket's verdict", () => {
  it("valid today on its day, also during its night after midnight", () => {
    for (const at of [local("2026-07-11T18:00"), local("2026-07-12T04:00")]) {
      const v = ticketVerdict(ticket(), ctx(at), [GENERAL.id]);
      expect(v).toMatchObject({ kind: "valid_today", day: D2, admit: true, zone: null });
    }
  });

  it("not valid today on another day, naming its valid days", () => {
    const v = ticketVerdict(ticket(), ctx(local("2026-07-12T18:00")), [GENERAL.id]);
    expect(v).toMatchObject({ kind: "not_valid_today", admit: false, validDays: [ref(D2)] });
    expect(v.today).toEqual({ kind: "open", day: D3 });
  });

  it("with several days: valid on each of them, not between them; its days named in the event's order", () => {
    const several = ticket({ valid_days: [ref(D4), ref(D1), ref(D3)] });
    expect(ticketVerdict(several, ctx(local("2026-07-10T20:00")), null).kind).toBe("valid_today");
    const day2 = ticketVerdict(several, ctx(local("2026-07-11T20:00")), null);
    expect(day2).toMatchObject({ kind: "not_valid_today", validDays: [ref(D1), ref(D3), ref(D4)] });
    expect(ticketVerdict(several, ctx(local("2026-07-13T02:00")), null).kind).toBe("valid_today");
    expect(ticketVerdict(several, ctx(local("2026-07-14T01:00")), null).kind).toBe("valid_today");
  });

  it("on the morning before its day opens it is valid today (the day has not opened yet)", () => {
    const v = ticketVerdict(ticket(), ctx(local("2026-07-11T09:00")), null);
    expect(v).toMatchObject({ kind: "valid_today", day: D2, admit: true });
    expect(v.today.kind).toBe("opening");
  });

  it("before the first day, and after the last night closed, no ticket is valid today", () => {
    const all = ticket({ valid_days: DAYS.map(ref) });
    expect(ticketVerdict(all, ctx(local("2026-07-09T20:00")), null)).toMatchObject({
      kind: "not_valid_today",
      today: { kind: "before", next: D1 },
    });
    expect(ticketVerdict(all, ctx(local("2026-07-14T07:00")), null)).toMatchObject({
      kind: "not_valid_today",
      today: { kind: "over", last: D4 },
    });
  });

  it("cannot tell while the console knows no event day yet", () => {
    const v = ticketVerdict(ticket(), { ...ctx(local("2026-07-11T18:00")), days: [] }, null);
    expect(v).toMatchObject({ kind: "days_unknown", admit: false, today: { kind: "no_days" } });
  });

  it("already used: when, and with which wristband", () => {
    const used = ticket({
      status: "used",
      checked_in_at: "2026-07-11T10:05:00.000Z",
      wristband: { nfc: "04AB" },
    });
    expect(ticketVerdict(used, ctx(local("2026-07-11T18:00")), null)).toMatchObject({
      kind: "used",
      checkedInAt: "2026-07-11T10:05:00.000Z",
      wristband: "04AB",
      admit: false,
    });
  });

  it("cancelled, whatever the day", () => {
    expect(ticketVerdict(ticket({ status: "inactive" }), ctx(local("2026-07-11T18:00")), null)).toMatchObject(
      {
        kind: "cancelled",
        admit: false,
      },
    );
  });

  it("with the gate's zone: allowed by its type or its extra zones, else refused; unknown zones cannot tell", () => {
    const at = local("2026-07-11T18:00");
    expect(ticketVerdict(ticket(), ctx(at, GENERAL), [GENERAL.id])).toMatchObject({
      kind: "valid_today",
      zone: { zone: GENERAL, allowed: true },
      admit: true,
    });
    expect(ticketVerdict(ticket({ extra_zones: [CAMPING] }), ctx(at, CAMPING), [GENERAL.id])).toMatchObject({
      zone: { zone: CAMPING, allowed: true },
      admit: true,
    });
    expect(ticketVerdict(ticket(), ctx(at, VIP), [GENERAL.id])).toMatchObject({
      kind: "valid_today",
      zone: { zone: VIP, allowed: false },
      admit: false,
    });
    expect(ticketVerdict(ticket(), ctx(at, VIP), null)).toMatchObject({
      zone: { zone: VIP, allowed: null },
      admit: true,
    });
  });
});

function wristband(overrides: Partial<VerdictWristband> = {}): VerdictWristband {
  return { status: "active", valid_days: [D2.id, D3.id], allowed_zones: [GENERAL], ...overrides };
}

describe("a wristband's verdict", () => {
  it("active: valid today on its days, not on others, with its days named", () => {
    expect(wristbandVerdict(wristband(), ctx(local("2026-07-12T20:00")))).toMatchObject({
      kind: "valid_today",
      day: D3,
      admit: true,
    });
    expect(wristbandVerdict(wristband(), ctx(local("2026-07-10T20:00")))).toMatchObject({
      kind: "not_valid_today",
      validDays: [ref(D2), ref(D3)],
      admit: false,
    });
  });

  it.each(["blocked", "lost", "released", "pending_review"] as const)(
    "%s: refused whatever the day",
    (status) => {
      expect(wristbandVerdict(wristband({ status }), ctx(local("2026-07-11T20:00")))).toMatchObject({
        kind: status,
        admit: false,
      });
    },
  );

  it("with the gate's zone: its allowed zones decide", () => {
    const at = local("2026-07-11T20:00");
    expect(wristbandVerdict(wristband(), ctx(at, GENERAL))).toMatchObject({
      zone: { allowed: true },
      admit: true,
    });
    expect(wristbandVerdict(wristband(), ctx(at, VIP))).toMatchObject({
      zone: { allowed: false },
      admit: false,
    });
  });

  it("a valid day the event no longer lists keeps its id as its name, after the known ones", () => {
    const v = wristbandVerdict(wristband({ valid_days: ["gone", D1.id] }), ctx(local("2026-07-11T20:00")));
    expect(v.validDays).toEqual([ref(D1), { id: "gone", name: "gone" }]);
  });
});
