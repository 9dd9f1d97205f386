"use client";

import { useIntlLocale } from "@/components/ui/locale-format";
import { dateTime } from "@/lib/shared/format/time";

/** Date and time in the event's zone and the reader's language. */
export function useTimeText(timeZone: string): (at: string) => string {
  const locale = useIntlLocale();
  return (at) => dateTime(at, timeZone, locale);
}
