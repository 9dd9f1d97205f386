import "server-only";
import type { Db } from "@/lib/db/db";
import { recordSyncError, type SyncErrorFields } from "@/lib/server/store/sync-state";
import { isUpstreamError, type RequestOptions, type UpstreamClient } from "@/lib/server/upstream/client";

/** Every resource the worker keeps a `sync_state` row for, in cycle order. */
export const syncResources = [
  "event",
  "days",
  "zones",
  "ticket_types",
  "tickets",
  "review_wristbands",
  "sales",
  "topups",
  "scans",
  "checksum",
] as const;
export type SyncResource = (typeof syncResources)[number];

export type SyncLogger = Pick<Console, "info" | "warn" | "error">;

/** What one resource's run of a cycle did: its requests (every attempt), records, error, lag. */
export class ResourceRun {
  requests = 0;
  records = 0;
  error: unknown = null;
  lagSeconds: number | null = null;
}

/** What every part of a cycle works with. */
export interface SyncContext {
  readonly db: Db;
  readonly client: UpstreamClient;
  /** The same clock as the client's. */
  readonly now: () => Date;
  readonly log: SyncLogger;
  /** `limit` of every list request. */
  readonly pageSize: number;
  /** Overlap of `updated_since` / `since` windows. */
  readonly overlapMs: number;
  /** Options for a request of `run`: each attempt held back to keep the quota's reserve, and counted. */
  request(run: ResourceRun): RequestOptions;
}

export function errorFields(err: unknown): SyncErrorFields {
  return isUpstreamError(err)
    ? { status: err.status, code: err.code, message: err.message, request_id: err.request_id }
    : {
        status: null,
        code: "internal",
        message: err instanceof Error ? err.message : String(err),
        request_id: null,
      };
}

/** Keeps an error of the resource for the status view. */
export function recordError(ctx: SyncContext, resource: SyncResource, err: unknown): Promise<void> {
  return recordSyncError(ctx.db, resource, ctx.now(), errorFields(err));
}

/** The latest of ISO 8601 timestamps (compared as instants, whatever their precision or offset). */
export function latest(values: string[]): string {
  let best = values[0];
  for (const v of values) if (Date.parse(v) > Date.parse(best)) best = v;
  return best;
}
