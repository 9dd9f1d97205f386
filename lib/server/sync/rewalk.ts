import "server-only";
import { deleteDayRecordsNotIn, tailTables, upsertTail } from "@/lib/server/store/mirror";
import { addRecordsSynced } from "@/lib/server/store/sync-state";
import type { ResourceRun, SyncContext } from "./context";
import { tailPaths } from "./tails";

/** The records a day re-walk covers: those the sales summary counts. */
export type RewalkResource = "sales" | "topups";

/**
 * Walks every record of one day (`day_id`), upserting; then deletes the day's mirrored records
 * upstream no longer lists. This is what catches late records whose id fell below the cursor.
 * Each page's records are counted as it is stored, under the resource they belong to (sales or
 * top-ups, not the checksum that runs the walk), so a walk that fails half-way still counts what
 * it wrote (the next checksum may then match, and no walk counts them again).
 */
export async function rewalkDay(
  ctx: SyncContext,
  resource: RewalkResource,
  dayId: string,
  run: ResourceRun,
): Promise<void> {
  const ids: string[] = [];
  const pages = ctx.client.pages(
    tailPaths[resource],
    { limit: ctx.pageSize, day_id: dayId },
    ctx.request(run),
  );
  for await (const page of pages) {
    await upsertTail(ctx.db, resource, page.data);
    await addRecordsSynced(ctx.db, resource, page.data.length);
    ids.push(...page.data.map((x) => x.id));
  }
  const removed = await deleteDayRecordsNotIn(ctx.db, tailTables[resource], dayId, ids);
  if (removed) ctx.log.info(`[sync] day ${dayId}: ${removed} ${resource} no longer listed upstream, removed`);
}
