import "server-only";
import type { Queryable } from "@/lib/db/db";
import { decimalString } from "@/lib/shared/format/money";
import { dateTime } from "@/lib/shared/format/time";
import type { Locale } from "@/lib/shared/i18n/locales";
import { translatorFor } from "@/lib/shared/i18n/messages";
import { csvLine } from "../http/respond";
import * as records from "../store/live-records";
import { eventContext, pickDay } from "../sync/freshness";

const PAGE = 2000;

/**
 * Every record of a day, newest first, as a CSV stream: read page by page through the
 * (day_id, occurred_at, id) index so a big night never sits in memory.
 */
function streamCsv<R extends { id: string; occurred_at: string }>(
  header: string[],
  page: (after: records.After | null) => Promise<R[]>,
  line: (row: R) => unknown[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: records.After | null = null;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvLine(header)));
      }
      const rows = await page(after);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(rows.map((r) => csvLine(line(r))).join("")));
      const last = rows[rows.length - 1]!;
      after = { at: last.occurred_at, id: last.id };
    },
  });
}

/** Column names in the user's language (English: the API's field names). */
function header(locale: Locale, timeZone: string, ...rest: string[]): string[] {
  const t = translatorFor(locale);
  const column = (name: string) => t(`csv.column.${name}` as "csv.column.id");
  return [
    column("id"),
    column("occurred_at"),
    t("csv.column.occurred_local", { timeZone }),
    column("created_at"),
    ...rest.map(column),
  ];
}

export function salesCsv(db: Queryable, dayId: string, currency: string, timeZone: string, locale: Locale) {
  const money = (minor: number) => decimalString(minor, currency);
  return streamCsv(
    header(
      locale,
      timeZone,
      "status",
      "type",
      "payment_method",
      "device_id",
      "currency",
      "total",
      "total_base",
      "total_tax",
      "items",
    ),
    (after) => records.salesPage(db, dayId, PAGE, after),
    (r) => [
      r.id,
      r.occurred_at,
      dateTime(r.occurred_at, timeZone),
      r.created_at,
      r.status,
      r.type,
      r.payment_method,
      r.device_id,
      currency,
      money(r.total),
      money(r.total_base),
      money(r.total_tax),
      r.items.map((i) => `${i.quantity}× ${i.name}`).join("; "),
    ],
  );
}

export function topupsCsv(
  db: Queryable,
  dayId: string,
  direction: "topup" | "withdraw" | null,
  currency: string,
  timeZone: string,
  locale: Locale,
) {
  return streamCsv(
    header(
      locale,
      timeZone,
      "direction",
      "status",
      "payment_method",
      "nature",
      "device_id",
      "currency",
      "amount",
    ),
    (after) => records.topupsPage(db, dayId, PAGE, after, direction),
    (r) => [
      r.id,
      r.occurred_at,
      dateTime(r.occurred_at, timeZone),
      r.created_at,
      r.direction,
      r.status,
      r.payment_method,
      r.nature,
      r.device_id,
      currency,
      decimalString(r.amount, currency),
    ],
  );
}

/** The export of one day's sales or top-ups: its file name and its stream (an empty file without a day). */
export async function dayExport(
  db: Queryable,
  what: { kind: "sales" } | { kind: "topups"; direction: "topup" | "withdraw" | null },
  dayId: string | null,
  locale: Locale,
  now: Date,
): Promise<{ fileName: string; body: string | ReadableStream<Uint8Array> }> {
  const ctx = await eventContext(db, now);
  const day = pickDay(ctx, dayId, now);
  const currency = ctx.event?.currency ?? "EUR";
  const tz = ctx.event?.time_zone ?? "UTC";
  const suffix = what.kind === "topups" && what.direction ? `-${what.direction}` : "";
  const fileName = `${what.kind}-${day?.date ?? "none"}${suffix}.csv`;
  if (!day) return { fileName, body: csvLine([translatorFor(locale)("csv.column.id")]) };
  const body =
    what.kind === "sales"
      ? salesCsv(db, day.id, currency, tz, locale)
      : topupsCsv(db, day.id, what.direction, currency, tz, locale);
  return { fileName, body };
}
