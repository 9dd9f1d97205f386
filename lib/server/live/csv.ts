import "server-only";
import type { Queryable } from "@/lib/db/db";
import { decimalString } from "@/lib/live/money";
import { dateTime } from "@/lib/live/time";

/** One CSV field: quoted when it holds a comma, quote or line break; formula-leading text is defused. */
export function csvField(value: unknown): string {
  if (value == null) return "";
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s) && Number.isNaN(Number(s))) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (fields: unknown[]) => `${fields.map(csvField).join(",")}\r\n`;

const iso = (v: unknown) => new Date(v as string | Date).toISOString();

/**
 * Every record of a day, newest first, as a CSV stream: read page by page through the
 * (day_id, occurred_at, id) index so a big night never sits in memory.
 */
function streamCsv(
  header: string[],
  page: (after: { at: string; id: string } | null) => Promise<Record<string, unknown>[]>,
  line: (row: Record<string, unknown>) => unknown[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { at: string; id: string } | null = null;
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
      const last = rows[rows.length - 1] as Record<string, unknown>;
      after = { at: iso(last.occurred_at), id: String(last.id) };
    },
  });
}

const PAGE = 2000;

function pageOf(
  db: Queryable,
  table: string,
  columns: string,
  dayId: string,
  extra = "",
  extraParams: unknown[] = [],
) {
  return (after: { at: string; id: string } | null) => {
    const params: unknown[] = [dayId, PAGE, ...extraParams];
    let where = extra;
    if (after) {
      params.push(after.at, after.id);
      where += ` and (occurred_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::text)`;
    }
    return db.query<Record<string, unknown>>(
      `select ${columns} from ${table} where day_id = $1${where} order by occurred_at desc, id desc limit $2`,
      params,
    );
  };
}

export function salesCsv(db: Queryable, dayId: string, currency: string, timeZone: string) {
  return streamCsv(
    [
      "id",
      "occurred_at",
      `occurred_local (${timeZone})`,
      "created_at",
      "status",
      "type",
      "payment_method",
      "device_id",
      "currency",
      "total",
      "total_base",
      "total_tax",
      "items",
    ],
    pageOf(
      db,
      "m_sales",
      "id, occurred_at, created_at, status, type, payment_method, device_id, total, total_base, total_tax, items",
      dayId,
    ),
    (r) => [
      r.id,
      iso(r.occurred_at),
      dateTime(iso(r.occurred_at), timeZone),
      iso(r.created_at),
      r.status,
      r.type,
      r.payment_method,
      r.device_id,
      currency,
      decimalString(Number(r.total), currency),
      decimalString(Number(r.total_base), currency),
      decimalString(Number(r.total_tax), currency),
      (typeof r.items === "string" ? JSON.parse(r.items) : (r.items as { name: string; quantity: number }[]))
        .map((i: { name: string; quantity: number }) => `${i.quantity}× ${i.name}`)
        .join("; "),
    ],
  );
}

export function topupsCsv(
  db: Queryable,
  dayId: string,
  direction: string | null,
  currency: string,
  timeZone: string,
) {
  return streamCsv(
    [
      "id",
      "occurred_at",
      `occurred_local (${timeZone})`,
      "created_at",
      "direction",
      "status",
      "payment_method",
      "nature",
      "device_id",
      "currency",
      "amount",
    ],
    pageOf(
      db,
      "m_topups",
      "id, occurred_at, created_at, direction, status, payment_method, nature, device_id, amount",
      dayId,
      direction ? " and direction = $3" : "",
      direction ? [direction] : [],
    ),
    (r) => [
      r.id,
      iso(r.occurred_at),
      dateTime(iso(r.occurred_at), timeZone),
      iso(r.created_at),
      r.direction,
      r.status,
      r.payment_method,
      r.nature,
      r.device_id,
      currency,
      decimalString(Number(r.amount), currency),
    ],
  );
}
