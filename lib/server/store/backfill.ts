import "server-only";
import type { Checkin, SalesSummary, Topup, Transaction } from "@/lib/contract";
import type { Db, Queryable } from "@/lib/db/db";
import { iso, isoOrNull } from "@/lib/db/rows";
import { type TailResource, upsertTail } from "./mirror";
import { advanceCursor } from "./sync-state";

/**
 * Live-first bookkeeping (migration 007): the upstream's sales summary per day as last fetched, and
 * the day-by-day first mirror of the tails (`sync_backfill`), resumable from each row's cursor.
 */

export interface BackfillRow {
  resource: TailResource;
  dayId: string;
  position: number;
  cursor: string | null;
  records: number;
  requests: number;
  done: boolean;
  startedAt: string | null;
  finishedAt: string | null;
}

interface BackfillDbRow {
  resource: TailResource;
  day_id: string;
  position: number;
  cursor: string | null;
  records: number;
  requests: number;
  done: boolean;
  started_at: string | Date | null;
  finished_at: string | Date | null;
}

const toRow = (r: BackfillDbRow): BackfillRow => ({
  resource: r.resource,
  dayId: r.day_id,
  position: r.position,
  cursor: r.cursor,
  records: r.records,
  requests: r.requests,
  done: r.done,
  startedAt: isoOrNull(r.started_at),
  finishedAt: isoOrNull(r.finished_at),
});

/** Every row of the plan, in walking order (empty: no plan, the tails walk from their cursors). */
export async function backfillRows(q: Queryable): Promise<BackfillRow[]> {
  const rows = await q.query<BackfillDbRow>(
    "select * from sync_backfill order by position, resource, day_id",
  );
  return rows.map(toRow);
}

/** Creates the plan once (rows already there are kept as they are). */
export async function createBackfillPlan(
  db: Db,
  rows: { resource: TailResource; dayId: string; position: number }[],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const r of rows)
      await tx.query(
        `insert into sync_backfill (resource, day_id, position) values ($1, $2, $3)
         on conflict (resource, day_id) do nothing`,
        [r.resource, r.dayId, r.position],
      );
  });
}

/**
 * One page of a day's walk, its records and the row's progress together. `tailStart` starts the
 * resource's tail (its cursor and watermark); `rewalk` days of the resource are to be walked again.
 */
export function saveBackfillPage(
  db: Db,
  row: Pick<BackfillRow, "resource" | "dayId">,
  items: (Transaction | Topup | Checkin)[],
  progress: {
    cursor: string | null;
    done: boolean;
    at: Date;
    tailStart?: { cursor: string; since: string };
    rewalk?: string[];
  },
): Promise<void> {
  return db.transaction(async (tx) => {
    await upsertTail(tx, row.resource, items);
    await tx.query(
      `update sync_backfill set cursor = coalesce($3, cursor), records = records + $4, requests = requests + 1,
         done = $5, started_at = coalesce(started_at, $6), finished_at = case when $5 then $6::timestamptz end
       where resource = $1 and day_id = $2`,
      [row.resource, row.dayId, progress.cursor, items.length, progress.done, progress.at.toISOString()],
    );
    if (progress.tailStart)
      await advanceCursor(tx, row.resource, progress.tailStart.cursor, progress.tailStart.since);
    for (const dayId of progress.rewalk ?? [])
      await tx.query(
        `update sync_backfill set done = false, cursor = null, finished_at = null
         where resource = $1 and day_id = $2`,
        [row.resource, dayId],
      );
  });
}

/** Keeps the summary of a day as fetched. */
export async function saveDaySummary(q: Queryable, summary: SalesSummary, fetchedAt: Date): Promise<void> {
  if (!summary.day_id) return;
  await q.query(
    `insert into sync_day_summaries (day_id, summary, fetched_at) values ($1, $2::jsonb, $3)
     on conflict (day_id) do update set summary = excluded.summary, fetched_at = excluded.fetched_at`,
    [summary.day_id, JSON.stringify(summary), fetchedAt.toISOString()],
  );
}

export interface StoredSummary {
  summary: SalesSummary;
  fetchedAt: string;
}

/** Every kept summary by day. */
export async function daySummaries(q: Queryable): Promise<Map<string, StoredSummary>> {
  const rows = await q.query<{ day_id: string; summary: SalesSummary; fetched_at: string | Date }>(
    "select day_id, summary, fetched_at from sync_day_summaries",
  );
  return new Map(rows.map((r) => [r.day_id, { summary: r.summary, fetchedAt: iso(r.fetched_at) }]));
}

/** Completed sales and top-ups/withdrawals mirrored per day (the aggregates count what summaries count). */
export async function mirroredCountsPerDay(q: Queryable): Promise<Map<string, number>> {
  const rows = await q.query<{ day_id: string; count: number }>(
    `select day_id, sum(count)::float8 as count from (
       select day_id, count from a_sales_hour union all select day_id, count from a_topups_hour
     ) t group by day_id`,
  );
  return new Map(rows.map((r) => [r.day_id, r.count]));
}

/** Whether every record of the day has been walked by the first mirror (true when there is no plan). */
export async function isDayWalked(q: Queryable, dayId: string): Promise<boolean> {
  const rows = await q.query("select 1 from sync_backfill where day_id = $1 and not done limit 1", [dayId]);
  return rows.length === 0;
}
