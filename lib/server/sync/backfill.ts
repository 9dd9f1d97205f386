import "server-only";
import type { Checkin, Topup, Transaction } from "@/lib/contract";
import {
  type BackfillRow,
  backfillRows,
  createBackfillPlan,
  saveBackfillPage,
} from "@/lib/server/store/backfill";
import { eventDays } from "@/lib/server/store/event-settings";
import type { TailResource } from "@/lib/server/store/mirror";
import { readSyncCursor } from "@/lib/server/store/sync-state";
import type { ListPage } from "@/lib/server/upstream/types";
import type { LiveDay } from "@/lib/shared/api/sales";
import { dayOf } from "@/lib/shared/format/time";
import { latest, type ResourceRun, type SyncContext } from "./context";

/**
 * Today first (issue 12): the first mirror walks the tails day by day (`day_id`), the current event
 * day first, then the days before it, newest first (days still to come last). Each (resource, day)
 * row resumes from its cursor after a restart, so no page is fetched twice.
 *
 * The tail of a resource starts where its first walk that found records ended (normally the current
 * day's): a record that reaches the upstream later has a higher id and comes by the tail; one that
 * came before, by its day's walk. The days walked before that one were empty then; they are walked
 * once more, so a record that reached them in between is not missed.
 */

export const tailResources: TailResource[] = ["sales", "topups", "scans"];

/** The days in walking order: the current one, the earlier ones newest first, then the later ones. */
export function walkingOrder<D extends LiveDay>(days: D[], now: Date): D[] {
  const current = dayOf(days, now);
  if (!current) return [];
  const start = (d: D) => Date.parse(d.starts_at);
  const earlier = days.filter((d) => start(d) < start(current)).sort((a, b) => start(b) - start(a));
  const later = days.filter((d) => start(d) > start(current)).sort((a, b) => start(a) - start(b));
  return [current, ...earlier, ...later];
}

/**
 * Plans the first mirror when there is nothing yet: no plan, and no tail has a cursor or a watermark
 * (a mirror made before this plan existed keeps following its tails). Returns the plan's rows.
 */
export async function ensureBackfillPlan(ctx: SyncContext): Promise<BackfillRow[]> {
  const rows = await backfillRows(ctx.db);
  if (rows.length > 0) return rows;
  for (const resource of tailResources) {
    const state = await readSyncCursor(ctx.db, resource);
    if (state.cursor || state.watermark) return rows;
  }
  const days = walkingOrder(await eventDays(ctx.db), ctx.now());
  if (days.length === 0) return rows;
  await createBackfillPlan(
    ctx.db,
    days.flatMap((d, i) =>
      tailResources.map((resource, r) => ({ resource, dayId: d.id, position: i * 3 + r })),
    ),
  );
  return backfillRows(ctx.db);
}

/** The first day of the plan (the day that was current when it was made). */
export function firstDayOf(rows: BackfillRow[]): string | null {
  return rows.length ? rows.reduce((a, b) => (b.position < a.position ? b : a)).dayId : null;
}

/**
 * Whether a resource's tail runs: no plan for it, its whole plan walked, or a walk of it already
 * ended with records (the tail then starts where that walk ended, see backfillPage).
 */
export function tailReady(rows: BackfillRow[], resource: TailResource): boolean {
  const own = rows.filter((r) => r.resource === resource);
  return own.every((r) => r.done) || own.some((r) => r.done && r.records > 0);
}

/** Whether every record of the day has been walked (true when there is no plan). */
export function dayWalked(rows: BackfillRow[], dayId: string): boolean {
  return rows.every((r) => r.dayId !== dayId || r.done);
}

/**
 * Where the resource's tail started (null: not yet): the last id of its first walk that found
 * records. Ids grow with arrival and lists are ordered by id (decisions), so a later day walk stops
 * there: what lies above came, or comes, by the tail.
 */
export function tailStartOf(rows: BackfillRow[], resource: TailResource): string | null {
  const started = rows
    .filter((r) => r.resource === resource && r.done && r.records > 0 && r.finishedAt)
    .sort((a, b) => Date.parse(a.finishedAt as string) - Date.parse(b.finishedAt as string));
  return started[0]?.cursor ?? null;
}

export const nextPending = (rows: BackfillRow[]) => rows.find((r) => !r.done) ?? null;

function fetchDayPage(
  ctx: SyncContext,
  run: ResourceRun,
  row: BackfillRow,
): Promise<ListPage<Transaction | Topup | Checkin>> {
  const params = {
    limit: ctx.pageSize,
    day_id: row.dayId,
    ...(row.cursor ? { starting_after: row.cursor } : {}),
  };
  const opts = ctx.request(run);
  if (row.resource === "sales") return ctx.client.transactions(params, opts);
  if (row.resource === "topups") return ctx.client.topups(params, opts);
  return ctx.client.checkins(params, opts);
}

/**
 * Walks one page of the row; returns whether the row is now done. When this ends the resource's first
 * walk that found records, its tail starts at the last id walked and the empty days walked before it
 * are walked again (see the module's comment).
 */
export async function backfillPage(
  ctx: SyncContext,
  run: ResourceRun,
  rows: BackfillRow[],
  row: BackfillRow,
): Promise<boolean> {
  const page = await fetchDayPage(ctx, run, row);
  const cursor = page.next_cursor ?? page.data.at(-1)?.id ?? null;
  const stopAt = tailStartOf(rows, row.resource);
  const done = !page.has_more || (stopAt !== null && cursor !== null && cursor >= stopAt);
  const records = row.records + page.data.length;
  const startsTail = done && records > 0 && !tailReady(rows, row.resource);
  const lastId = cursor ?? row.cursor;
  const newest = page.data.length ? latest(page.data.map((x) => x.occurred_at)) : null;
  const rewalk = startsTail ? rows.filter((r) => r.resource === row.resource && r.done) : [];
  const at = ctx.now().toISOString();
  await saveBackfillPage(ctx.db, row, page.data, {
    cursor,
    done,
    at: new Date(at),
    tailStart:
      startsTail && lastId ? { cursor: lastId, since: newest ?? ctx.now().toISOString() } : undefined,
    rewalk: rewalk.map((r) => r.dayId),
  });
  run.records += page.data.length;
  Object.assign(row, { cursor: cursor ?? row.cursor, records, requests: row.requests + 1, done });
  if (done) row.finishedAt = at;
  for (const r of rewalk) Object.assign(r, { done: false, cursor: null });
  return done;
}
