import { describe, expect, it } from "vitest";
import { dateTime, dayHours, dayOf, hourBucket, hourLabels, timeOfDay } from "./time";

const MADRID = "Europe/Madrid";
// Madrid days run 12:00 → 06:00 next morning. The night of 24→25 Oct 2026 holds the change to
// winter time (03:00 CEST → 02:00 CET): 19 hours instead of 18. 28→29 Mar 2026 is the opposite.
const days = [
  {
    id: "d1",
    name: "Sat",
    date: "2026-10-24",
    starts_at: "2026-10-24T10:00:00Z",
    ends_at: "2026-10-25T05:00:00Z",
  },
  {
    id: "d2",
    name: "Sun",
    date: "2026-10-25",
    starts_at: "2026-10-25T11:00:00Z",
    ends_at: "2026-10-26T05:00:00Z",
  },
];

describe("hour buckets in the event time zone", () => {
  it("is the UTC instant of the local hour's start", () => {
    expect(hourBucket("2026-07-10T21:59:59.999Z", MADRID)).toBe("2026-07-10T21:00:00.000Z");
    expect(hourBucket("2026-07-10T22:00:00Z", MADRID)).toBe("2026-07-10T22:00:00.000Z");
    // Half-hour offset zone: the local hour starts at :30 UTC.
    expect(hourBucket("2026-07-10T10:10:00Z", "Asia/Kolkata")).toBe("2026-07-10T09:30:00.000Z");
  });

  it("gives both 02:00 hours of the autumn change their own bucket", () => {
    const first = hourBucket("2026-10-25T00:30:00Z", MADRID); // 02:30 CEST
    const second = hourBucket("2026-10-25T01:30:00Z", MADRID); // 02:30 CET
    expect(first).toBe("2026-10-25T00:00:00.000Z");
    expect(second).toBe("2026-10-25T01:00:00.000Z");
    expect(hourLabels([first, second], MADRID)).toEqual(["02:00 +02:00", "02:00 +01:00"]);
  });

  it("lists a day window's hours: 19 on the autumn night, 17 on the spring night, 18 otherwise", () => {
    const autumn = dayHours(days[0]!, MADRID);
    expect(autumn).toHaveLength(19);
    expect(autumn[0]).toBe("2026-10-24T10:00:00.000Z");
    expect(autumn.at(-1)).toBe("2026-10-25T04:00:00.000Z");
    const labels = hourLabels(autumn, MADRID);
    expect(labels[0]).toBe("12:00");
    expect(labels.filter((l) => l.startsWith("02:00"))).toHaveLength(2);
    expect(labels.at(-1)).toBe("05:00");

    const spring = dayHours({ starts_at: "2026-03-28T11:00:00Z", ends_at: "2026-03-29T04:00:00Z" }, MADRID);
    expect(spring).toHaveLength(17);
    expect(hourLabels(spring, MADRID)).not.toContain("02:00");

    expect(dayHours(days[1]!, MADRID)).toHaveLength(18);
  });
});

describe("day windows", () => {
  it("picks the day whose window holds the instant, by the API's rule", () => {
    expect(dayOf(days, new Date("2026-10-24T23:59:00Z"))?.id).toBe("d1");
    // 02:30 CET after the change, still the Saturday night.
    expect(dayOf(days, new Date("2026-10-25T01:30:00Z"))?.id).toBe("d1");
    expect(dayOf(days, new Date("2026-10-25T04:59:59Z"))?.id).toBe("d1");
    // Between nights (06:00–12:00): the last day that started.
    expect(dayOf(days, new Date("2026-10-25T08:00:00Z"))?.id).toBe("d1");
    expect(dayOf(days, new Date("2026-10-25T11:00:00Z"))?.id).toBe("d2");
    // Before the event: the first day; after: the last.
    expect(dayOf(days, new Date("2026-10-01T00:00:00Z"))?.id).toBe("d1");
    expect(dayOf(days, new Date("2026-12-01T00:00:00Z"))?.id).toBe("d2");
    expect(dayOf([], new Date())).toBeNull();
  });

  it("shows times in the event zone, not the machine's", () => {
    expect(timeOfDay("2026-10-25T00:30:00Z", MADRID)).toBe("02:30:00");
    expect(timeOfDay("2026-10-25T01:30:00Z", MADRID)).toBe("02:30:00");
    expect(timeOfDay("2026-10-25T01:30:00Z", "America/New_York")).toBe("21:30:00");
    expect(dateTime("2026-10-24T22:15:00Z", MADRID)).toBe("Sun 25 Oct 00:15:00");
  });
});
