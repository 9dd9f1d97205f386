import "server-only";
import type { SyncResource } from "./context";

/** What a cycle of the sync worker (or one of its steps) did, resource by resource. */

export interface ResourceReport {
  ok: boolean;
  requests: number;
  records: number;
  error?: { status: number | null; code: string; message: string; request_id: string | null };
}

export interface CycleReport {
  startedAt: Date;
  finishedAt: Date;
  /** Upstream requests made by this cycle (every attempt, retries included). */
  requests: number;
  resources: Partial<Record<SyncResource, ResourceReport>>;
  /** Days whose records were re-walked because the checksum differed. */
  rewalkedDays: string[];
  /** Days whose mirror equals the sales summary at the end of the cycle. */
  matchedDays: string[];
  /** True when stop() interrupted the cycle. */
  aborted: boolean;
}

export const emptyReport = (at: Date): CycleReport => ({
  startedAt: at,
  finishedAt: at,
  requests: 0,
  resources: {},
  rewalkedDays: [],
  matchedDays: [],
  aborted: false,
});

/** Adds one page's report to a resource's totals: its requests and records summed, its outcome last. */
export function addPage(
  totals: CycleReport["resources"],
  resource: SyncResource,
  page: ResourceReport,
): void {
  const sum = totals[resource];
  totals[resource] = {
    ...page,
    requests: page.requests + (sum?.requests ?? 0),
    records: page.records + (sum?.records ?? 0),
  };
}
