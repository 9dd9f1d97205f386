import "server-only";
import { DateTime } from "luxon";

/** Times of the notifications: quiet hours in the event's time zone, and the retries' backoff. */

/**
 * When a message due at `due` may go: `due` itself, or the end of the quiet hours it falls in
 * (`from`–`to`, minutes of the day in `timeZone`; across midnight when `to` is before `from`).
 */
export function afterQuietHours(
  due: Date,
  quiet: { from: number | null; to: number | null },
  timeZone: string,
): Date {
  if (quiet.from === null || quiet.to === null || quiet.from === quiet.to) return due;
  const local = DateTime.fromJSDate(due, { zone: timeZone });
  const minute = local.hour * 60 + local.minute;
  const inside =
    quiet.from < quiet.to
      ? minute >= quiet.from && minute < quiet.to
      : minute >= quiet.from || minute < quiet.to;
  if (!inside) return due;
  let end = local.startOf("day").plus({ minutes: quiet.to });
  if (end <= local) end = end.plus({ days: 1 }).startOf("day").plus({ minutes: quiet.to });
  return end.toJSDate();
}

export const RETRY_FIRST_MS = 30_000;
export const RETRY_MAX_MS = 60 * 60_000;
/** Attempts before a message is failed for good (30 s, 1, 2, 4 … minutes apart: about 4 hours). */
export const MAX_ATTEMPTS = 10;

/** How long to wait after the `attempts`-th failed attempt: doubling from 30 s, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1));
}
