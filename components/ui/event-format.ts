import type { LiveContext } from "@/lib/shared/api/sales";
import { formatMoney } from "@/lib/shared/format/money";
import { dateTime, timeOfDay } from "@/lib/shared/format/time";

/**
 * Money and times of one event: its currency and its time zone (never the browser's). A plain
 * function of the answer, not a hook: call it once the answer is there.
 */
export function eventFormat(ctx: LiveContext, locale = "en-GB") {
  const currency = ctx.event?.currency ?? "EUR";
  const timeZone = ctx.event?.time_zone ?? "UTC";
  return {
    currency,
    timeZone,
    money: (minor: number) => formatMoney(minor, currency, locale),
    /** "HH:mm:ss" in the event's zone. */
    time: (at: string) => timeOfDay(at, timeZone),
    /** "ddd d MMM HH:mm:ss" in the event's zone. */
    dateTime: (at: string) => dateTime(at, timeZone, locale),
  };
}
