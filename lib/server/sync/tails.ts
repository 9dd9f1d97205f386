import "server-only";
import { pushBus } from "@/lib/server/push";
import { newestArrival, saveTailPage, type TailResource } from "@/lib/server/store/mirror";
import { clearCursor, readSyncCursor } from "@/lib/server/store/sync-state";
import { isUpstreamError } from "@/lib/server/upstream/client";
import { latest, type ResourceRun, recordError, type SyncContext } from "./context";

/** The list each tail walks. */
export const tailPaths = { sales: "/transactions", topups: "/topups", scans: "/checkins" } as const;

type TailParams = { starting_after?: string; since?: Date };

/**
 * Walks what arrived since the cursor (`starting_after` = last mirrored id). First run: everything.
 * A refused cursor (400): `since` = newest mirrored `occurred_at` − overlap, the cursor then
 * restarting from what that walk saw. Returns the lag: how far behind now the newest mirrored
 * arrival is (null: nothing mirrored).
 */
export async function syncTail(
  ctx: SyncContext,
  resource: TailResource,
  run: ResourceRun,
): Promise<number | null> {
  const state = await readSyncCursor(ctx.db, resource);
  const since: TailParams = state.watermark
    ? { since: new Date(Date.parse(state.watermark) - ctx.overlapMs) }
    : {};
  if (!state.cursor) await walkTail(ctx, resource, since, run, true);
  else {
    try {
      await walkTail(ctx, resource, { starting_after: state.cursor }, run, false);
    } catch (err) {
      if (!(isUpstreamError(err) && err.status === 400)) throw err;
      ctx.log.warn(`[sync] ${resource}: cursor ${state.cursor} refused (${err.code}); falling back to since`);
      await recordError(ctx, resource, err);
      await walkTail(ctx, resource, since, run, true);
    }
  }
  if (run.records > 0) pushBus(ctx.db).emit(resource);
  const newest = await newestArrival(ctx.db, resource);
  return newest ? Math.max(0, (ctx.now().getTime() - Date.parse(newest)) / 1000) : null;
}

async function walkTail(
  ctx: SyncContext,
  resource: TailResource,
  params: TailParams,
  run: ResourceRun,
  restartCursor: boolean,
): Promise<void> {
  if (restartCursor) await clearCursor(ctx.db, resource);
  const pages = ctx.client.pages(tailPaths[resource], { limit: ctx.pageSize, ...params }, ctx.request(run));
  for await (const page of pages) {
    const cursor = page.next_cursor ?? page.data.at(-1)?.id;
    if (!cursor) continue;
    const watermark = page.data.length ? latest(page.data.map((x) => x.occurred_at)) : null;
    await saveTailPage(ctx.db, resource, page.data, { cursor, watermark });
    run.records += page.data.length;
  }
}
