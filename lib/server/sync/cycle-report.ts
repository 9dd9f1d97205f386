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

/**
 * Adds one run of a resource to the cycle's report: requests and records summed, failed if any run
 * failed (the latest failure's error).
 */
export function addRun(report: CycleReport, resource: SyncResource, run: ResourceReport): void {
  const sum = report.resources[resource];
  report.resources[resource] = {
    ok: (sum?.ok ?? true) && run.ok,
    requests: run.requests + (sum?.requests ?? 0),
    records: run.records + (sum?.records ?? 0),
    ...(run.error ? { error: run.error } : sum?.error ? { error: sum.error } : {}),
  };
}
