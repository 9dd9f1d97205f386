import "server-only";
import { replaceDays, replaceTicketTypes, replaceZones, saveEvent } from "@/lib/server/store/mirror";
import type { ResourceRun, SyncContext, SyncResource } from "./context";

/** The catalog (event, days, zones, ticket types): small, refreshed whole. */

async function syncEvent(ctx: SyncContext, run: ResourceRun): Promise<void> {
  const event = await ctx.client.event(ctx.request(run));
  if (await saveEvent(ctx.db, event, ctx.now())) {
    ctx.log.warn(`[sync] the key now serves event ${event.id}: the mirror of the previous event was dropped`);
  }
  run.records = 1;
}

async function syncDays(ctx: SyncContext, run: ResourceRun): Promise<void> {
  const days = await ctx.client.days(ctx.request(run));
  await replaceDays(ctx.db, days);
  run.records = days.length;
}

async function syncZones(ctx: SyncContext, run: ResourceRun): Promise<void> {
  const zones = await ctx.client.zones(ctx.request(run));
  await replaceZones(ctx.db, zones);
  run.records = zones.length;
}

async function syncTicketTypes(ctx: SyncContext, run: ResourceRun): Promise<void> {
  const types = await ctx.client.ticketTypes(ctx.request(run));
  await replaceTicketTypes(ctx.db, types);
  run.records = types.length;
}

/** The catalog's resources, in the order a cycle refreshes them (the event first: it may reset the mirror). */
export const catalogSyncs: readonly [SyncResource, (ctx: SyncContext, run: ResourceRun) => Promise<void>][] =
  [
    ["event", syncEvent],
    ["days", syncDays],
    ["zones", syncZones],
    ["ticket_types", syncTicketTypes],
  ];
