import "server-only";
import type {
  Checkin,
  Day,
  Event,
  Ticket,
  TicketType,
  Topup,
  Transaction,
  Wristband,
  Zone,
} from "@/lib/contract";
import type { Db, Queryable } from "@/lib/db/db";
import type { DayTotals } from "@/lib/shared/api/sync";
import { normalizeSearchText } from "@/lib/shared/search-text";
import { advanceCursor, advanceWatermark } from "./sync-state";

/**
 * Writes of the dashboard's mirror tables (`m_*`, migration 001) from parsed upstream resources.
 * Every write is an upsert by id, so a record seen twice (overlapping windows, re-walks) is harmless.
 * Rows travel as one JSON parameter expanded by `jsonb_to_recordset`: one statement per page, the
 * same SQL on PGlite and PostgreSQL.
 */

type Column = readonly [name: string, sqlType: string];

async function upsert(
  q: Queryable,
  table: string,
  columns: readonly Column[],
  rows: Record<string, unknown>[],
  options: { onlyIfNewer?: string } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name);
  const updates = names
    .filter((n) => n !== "id")
    .map((n) => `${n} = excluded.${n}`)
    .join(", ");
  const guard = options.onlyIfNewer
    ? ` where ${table}.${options.onlyIfNewer} <= excluded.${options.onlyIfNewer}`
    : "";
  await q.query(
    `insert into ${table} (${names.join(", ")})
     select ${names.join(", ")} from jsonb_to_recordset($1::jsonb)
       as x(${columns.map(([n, t]) => `${n} ${t}`).join(", ")})
     on conflict (id) do update set ${updates}${guard}`,
    [JSON.stringify(rows)],
  );
}

/** Deletes rows of `table` matching `where` whose id is not in `ids`. */
async function deleteMissing(
  q: Queryable,
  table: string,
  ids: string[],
  where = "true",
  params: unknown[] = [],
): Promise<number> {
  const n = params.length + 1;
  const rows = await q.query<{ id: string }>(
    `delete from ${table} where ${where}
       and not (id in (select jsonb_array_elements_text($${n}::jsonb))) returning id`,
    [...params, JSON.stringify(ids)],
  );
  return rows.length;
}

const saleColumns: Column[] = [
  ["id", "text"],
  ["status", "text"],
  ["type", "text"],
  ["payment_method", "text"],
  ["total", "integer"],
  ["total_base", "integer"],
  ["total_tax", "integer"],
  ["tax_breakdown", "jsonb"],
  ["items", "jsonb"],
  ["wristband_id", "text"],
  ["day_id", "text"],
  ["device_id", "text"],
  ["occurred_at", "timestamptz"],
  ["created_at", "timestamptz"],
];
const topupColumns: Column[] = [
  ["id", "text"],
  ["direction", "text"],
  ["amount", "integer"],
  ["previous_balance", "integer"],
  ["new_balance", "integer"],
  ["payment_method", "text"],
  ["nature", "text"],
  ["status", "text"],
  ["wristband_id", "text"],
  ["day_id", "text"],
  ["device_id", "text"],
  ["occurred_at", "timestamptz"],
  ["created_at", "timestamptz"],
];
const scanColumns: Column[] = [
  ["id", "text"],
  ["kind", "text"],
  ["allowed", "boolean"],
  ["reason", "text"],
  ["ticket_code", "text"],
  ["wristband_id", "text"],
  ["zone_id", "text"],
  ["device_id", "text"],
  ["day_id", "text"],
  ["occurred_at", "timestamptz"],
  ["created_at", "timestamptz"],
];
const ticketColumns: Column[] = [
  ["id", "text"],
  ["code", "text"],
  ["status", "text"],
  ["ticket_type_id", "text"],
  ["updated_at", "timestamptz"],
  ["data", "jsonb"],
  ["search_name", "text"],
];
const reviewColumns: Column[] = [
  ["id", "text"],
  ["nfc", "text"],
  ["ticket_code", "text"],
  ["status", "text"],
  ["updated_at", "timestamptz"],
  ["data", "jsonb"],
];

const dayColumns: Column[] = [
  ["id", "text"],
  ["name", "text"],
  ["date", "text"],
  ["starts_at", "timestamptz"],
  ["ends_at", "timestamptz"],
];
const zoneColumns: Column[] = [
  ["id", "text"],
  ["name", "text"],
];
const ticketTypeColumns: Column[] = [
  ["id", "text"],
  ["name", "text"],
  ["data", "jsonb"],
];

/** Tables the tail resources mirror into. */
export const tailTables = { sales: "m_sales", topups: "m_topups", scans: "m_scans" } as const;
export type TailResource = keyof typeof tailTables;

export function upsertSales(q: Queryable, sales: Transaction[]) {
  return upsert(
    q,
    "m_sales",
    saleColumns,
    sales.map(({ object: _, ...sale }) => sale),
  );
}

export function upsertTopups(q: Queryable, topups: Topup[]) {
  return upsert(
    q,
    "m_topups",
    topupColumns,
    topups.map(({ object: _, ...topup }) => topup),
  );
}

export function upsertScans(q: Queryable, scans: Checkin[]) {
  return upsert(
    q,
    "m_scans",
    scanColumns,
    scans.map(({ object: _, zone, ...scan }) => ({ ...scan, zone_id: zone?.id ?? null })),
  );
}

export function upsertTail(q: Queryable, resource: TailResource, items: (Transaction | Topup | Checkin)[]) {
  if (resource === "sales") return upsertSales(q, items as Transaction[]);
  if (resource === "topups") return upsertTopups(q, items as Topup[]);
  return upsertScans(q, items as Checkin[]);
}

/** Tickets change after creation: a row is only replaced by an equal or newer `updated_at`. */
export function upsertTickets(q: Queryable, tickets: Ticket[]) {
  return upsert(
    q,
    "m_tickets",
    ticketColumns,
    tickets.map((t) => ({
      id: t.id,
      code: t.code,
      status: t.status,
      ticket_type_id: t.ticket_type.id,
      updated_at: t.updated_at,
      data: t,
      // Name search (migration 009): the name as search normalizes it; a trigger indexes its words.
      search_name: normalizeSearchText(t.attendee.name),
    })),
    { onlyIfNewer: "updated_at" },
  );
}

/** Replaces a table's rows by `rows` (upsert them, delete the others), in one transaction. */
function replaceAll(db: Db, table: string, columns: readonly Column[], rows: Record<string, unknown>[]) {
  return db.transaction(async (tx) => {
    await deleteMissing(
      tx,
      table,
      rows.map((r) => r.id as string),
    );
    await upsert(tx, table, columns, rows);
  });
}

/** One page of a tail walk and the progress it makes (cursor, newest `occurred_at`), together. */
export function saveTailPage(
  db: Db,
  resource: TailResource,
  items: (Transaction | Topup | Checkin)[],
  progress: { cursor: string; watermark: string | null },
) {
  return db.transaction(async (tx) => {
    await upsertTail(tx, resource, items);
    await advanceCursor(tx, resource, progress.cursor, progress.watermark);
  });
}

/** One page of tickets and the newest `updated_at` it holds, together. */
export function saveTicketsPage(db: Db, tickets: Ticket[], newestUpdatedAt: string) {
  return db.transaction(async (tx) => {
    await upsertTickets(tx, tickets);
    await advanceWatermark(tx, "tickets", newestUpdatedAt);
  });
}

/** The review queue is replaced as a whole: it is exactly the wristbands upstream lists as pending. */
export function replaceReviewWristbands(db: Db, wristbands: Wristband[]) {
  return replaceAll(
    db,
    "m_review_wristbands",
    reviewColumns,
    wristbands.map((w) => ({
      id: w.id,
      nfc: w.nfc,
      ticket_code: w.ticket?.code ?? null,
      status: w.status,
      updated_at: w.updated_at,
      data: w,
    })),
  );
}

export function replaceDays(db: Db, days: Day[]) {
  return replaceAll(
    db,
    "m_days",
    dayColumns,
    days.map(({ object: _, ...day }) => day),
  );
}

export function replaceZones(db: Db, zones: Zone[]) {
  return replaceAll(
    db,
    "m_zones",
    zoneColumns,
    zones.map(({ id, name }) => ({ id, name })),
  );
}

export function replaceTicketTypes(db: Db, types: TicketType[]) {
  return replaceAll(
    db,
    "m_ticket_types",
    ticketTypeColumns,
    types.map((t) => ({ id: t.id, name: t.name, data: t })),
  );
}

/** What belongs to one upstream event: the mirror and its sync progress (dropped when the event changes). */
export const mirrorTables = [
  "m_event",
  "m_days",
  "m_zones",
  "m_ticket_types",
  "m_tickets",
  "m_review_wristbands",
  "m_wristband_tickets",
  "m_sales",
  "m_topups",
  "m_scans",
  "sync_state",
  "sync_day_checks",
  "sync_day_summaries",
  "sync_backfill",
  "terminal_states",
  "alerts",
];

/**
 * Stores the event. When the key now serves a different event than the mirror holds, the whole
 * mirror (and every cursor) is dropped first: nothing of the old event may mix with the new one.
 * Returns true when that happened.
 */
export async function saveEvent(db: Db, event: Event, syncedAt: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [previous] = await tx.query<{ id: string }>("select id from m_event");
    const reset = previous !== undefined && previous.id !== event.id;
    if (reset) for (const table of mirrorTables) await tx.query(`delete from ${table}`);
    await tx.query("delete from m_event where id <> $1", [event.id]);
    await tx.query(
      `insert into m_event (id, name, currency, time_zone, starts_at, ends_at, environment, synced_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (id) do update set name = excluded.name, currency = excluded.currency,
         time_zone = excluded.time_zone, starts_at = excluded.starts_at, ends_at = excluded.ends_at,
         environment = excluded.environment, synced_at = excluded.synced_at`,
      [
        event.id,
        event.name,
        event.currency,
        event.time_zone,
        event.starts_at,
        event.ends_at,
        event.environment,
        syncedAt.toISOString(),
      ],
    );
    return reset;
  });
}

/** Re-walk of one day: upserted already page by page; now drop what upstream no longer lists. */
export function deleteDayRecordsNotIn(
  q: Queryable,
  table: "m_sales" | "m_topups",
  dayId: string,
  ids: string[],
) {
  return deleteMissing(q, table, ids, "day_id = $1", [dayId]);
}

/**
 * The mirror's totals of one day; with `createdUpTo`, only records that had reached the upstream by
 * then (so a summary generated at that instant can be compared while records keep arriving).
 */
export async function mirrorDayTotals(q: Queryable, dayId: string, createdUpTo?: Date): Promise<DayTotals> {
  const params: unknown[] = [dayId];
  let upTo = "";
  if (createdUpTo) {
    params.push(createdUpTo.toISOString());
    upTo = " and created_at <= $2";
  }
  const [sales] = await q.query<DayTotals["sales"]>(
    `select count(*)::int as count, coalesce(sum(total), 0)::float8 as total,
       coalesce(sum(total_base), 0)::float8 as total_base, coalesce(sum(total_tax), 0)::float8 as total_tax
     from m_sales where day_id = $1 and status = 'completed'${upTo}`,
    params,
  );
  const flows = await q.query<{ direction: string; count: number; amount: number }>(
    `select direction, count(*)::int as count, coalesce(sum(amount), 0)::float8 as amount
     from m_topups where day_id = $1 and status = 'completed'${upTo} group by direction`,
    params,
  );
  const flow = (direction: string) => {
    const row = flows.find((f) => f.direction === direction);
    return { count: row?.count ?? 0, amount: row?.amount ?? 0 };
  };
  return { sales, topups: flow("topup"), withdrawals: flow("withdraw") };
}

// ── reads the sync worker needs ──────────────────────────────────────────────────────────────

/** Whether the mirror holds any day (no day yet: the catalog must be fetched first). */
export async function hasMirroredDays(q: Queryable): Promise<boolean> {
  return (await q.query("select 1 from m_days limit 1")).length > 0;
}

/** The mirrored days' ids, in day order. */
export async function mirroredDayIds(q: Queryable): Promise<string[]> {
  return (await q.query<{ id: string }>("select id from m_days order by starts_at, id")).map((d) => d.id);
}

export async function isMirroredDay(q: Queryable, dayId: string): Promise<boolean> {
  return (await q.query("select 1 from m_days where id = $1", [dayId])).length > 0;
}

/** The newest `created_at` (arrival upstream) of a tail's mirrored records (null: none). */
export async function newestArrival(q: Queryable, resource: TailResource): Promise<string | null> {
  const [row] = await q.query<{ at: string | null }>(
    `select max(created_at) as at from ${tailTables[resource]}`,
  );
  return row?.at ?? null;
}
