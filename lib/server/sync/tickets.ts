import "server-only";
import { replaceReviewWristbands, saveTicketsPage } from "@/lib/server/store/mirror";
import { readSyncCursor } from "@/lib/server/store/sync-state";
import { latest, type ResourceRun, type SyncContext } from "./context";

/**
 * Tickets change after creation: `updated_since` = newest mirrored `updated_at` − overlap, upserted
 * by id (a row only replaced by an equal or newer `updated_at`).
 */
export async function syncTickets(ctx: SyncContext, run: ResourceRun): Promise<void> {
  const { watermark } = await readSyncCursor(ctx.db, "tickets");
  const since = watermark ? new Date(Date.parse(watermark) - ctx.overlapMs) : undefined;
  const pages = ctx.client.pages("/tickets", { limit: ctx.pageSize, updated_since: since }, ctx.request(run));
  for await (const page of pages) {
    if (page.data.length === 0) continue;
    await saveTicketsPage(ctx.db, page.data, latest(page.data.map((x) => x.updated_at)));
    run.records += page.data.length;
  }
}

/** The review queue (`GET /wristbands?status=pending_review`), replacing the mirrored set. */
export async function syncReviewQueue(ctx: SyncContext, run: ResourceRun): Promise<void> {
  const pending = [];
  const pages = ctx.client.pages(
    "/wristbands",
    { limit: ctx.pageSize, status: "pending_review" },
    ctx.request(run),
  );
  for await (const page of pages) pending.push(...page.data);
  await replaceReviewWristbands(ctx.db, pending);
  run.records = pending.length;
}
