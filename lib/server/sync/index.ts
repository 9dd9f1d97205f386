import "server-only";

export { acquireSyncLeadership, runSyncWhenLeader, SYNC_LOCK_KEY, type SyncLeadership } from "./leadership";
export { type DayTotals, mirrorDayTotals, summaryTotals } from "./mirror";
export { type SyncDayCheck, type SyncResourceStatus, type SyncStatus, syncStatus } from "./status";
export {
  type CycleReport,
  type ResourceReport,
  type SyncLogger,
  type SyncResource,
  SyncWorker,
  type SyncWorkerOptions,
  syncResources,
} from "./sync-worker";
