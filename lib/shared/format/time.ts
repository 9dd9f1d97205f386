import { DateTime } from "luxon";

/**
 * Event-time helpers shared by the server (bucketing) and the screens (labels). Times are always
 * shown in the event's time zone (GET /event), never the browser's.
 */

export interface DayWindow {
  id: string;
  name: string;
  date: string;
  starts_at: string;
  ends_at: string;
}

/**
 * The UTC instant at which the event-local hour holding `at` starts (the aggregates' hour bucket,
 * the same as SQL `live_hour`). Across a daylight-saving change both local 02:00 hours get their
 * own instant.
 */
export function hourBucket(at: string | Date, timeZone: string): string {
  const t = DateTime.fromJSDate(typeof at === "string" ? new Date(at) : at, { zone: timeZone });
  const intoHour = t.minute * 60_000 + t.second * 1000 + t.millisecond;
  return new Date(t.toMillis() - intoHour).toISOString();
}

/** Every hour bucket of a day window, in order: [starts_at, ends_at). */
export function dayHours(day: Pick<DayWindow, "starts_at" | "ends_at">, timeZone: string): string[] {
  const end = Date.parse(day.ends_at);
  const hours: string[] = [];
  let at = Date.parse(hourBucket(day.starts_at, timeZone));
  while (at < end && hours.length < 100) {
    hours.push(new Date(at).toISOString());
    // Next local hour: an hour later, re-anchored in case of a zone with a non-hour shift.
    at = Date.parse(hourBucket(new Date(at + 3600_000), timeZone));
  }
  return hours;
}

/**
 * The event day of an instant (the API's day rule): the day whose [starts_at, ends_at) holds it;
 * else the last day that started before it; else the first day.
 */
export function dayOf<D extends Pick<DayWindow, "starts_at" | "ends_at">>(days: D[], at: Date): D | null {
  const sorted = [...days].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at));
  const t = at.getTime();
  const holding = sorted.find((d) => Date.parse(d.starts_at) <= t && t < Date.parse(d.ends_at));
  if (holding) return holding;
  const started = sorted.filter((d) => Date.parse(d.starts_at) <= t);
  return started[started.length - 1] ?? sorted[0] ?? null;
}

/** "HH:mm" of an hour bucket in the event's zone; with `disambiguate`, the UTC offset too ("02:00 +01"). */
export function hourLabel(bucket: string, timeZone: string, disambiguate = false): string {
  const t = DateTime.fromISO(bucket, { zone: timeZone });
  return disambiguate ? `${t.toFormat("HH:mm")} ${t.toFormat("ZZ")}` : t.toFormat("HH:mm");
}

/** Labels of consecutive hour buckets: the offset is added only where a local hour repeats (DST). */
export function hourLabels(buckets: string[], timeZone: string): string[] {
  const plain = buckets.map((b) => hourLabel(b, timeZone));
  return plain.map((label, i) =>
    plain.indexOf(label) !== plain.lastIndexOf(label)
      ? hourLabel(buckets[i] as string, timeZone, true)
      : label,
  );
}

/** "HH:mm:ss" of an instant in the event's zone. */
export function timeOfDay(at: string | Date, timeZone: string): string {
  return DateTime.fromJSDate(typeof at === "string" ? new Date(at) : at, { zone: timeZone }).toFormat(
    "HH:mm:ss",
  );
}

/** "ddd d MMM HH:mm:ss" of an instant in the event's zone, day and month named in `locale`. */
export function dateTime(at: string | Date, timeZone: string, locale = "en-GB"): string {
  return DateTime.fromJSDate(typeof at === "string" ? new Date(at) : at, { zone: timeZone })
    .setLocale(locale)
    .toFormat("ccc d LLL HH:mm:ss");
}
