import "server-only";

export { summaryTotals } from "./checksum";
export { type SyncLogger, type SyncResource, syncResources } from "./context";
export type { CycleReport, ResourceReport } from "./cycle-report";
export { acquireSyncLeadership, runSyncWhenLeader, SYNC_LOCK_KEY, type SyncLeadership } from "./leadership";
export { syncStatus } from "./status";
export { SyncWorker, type SyncWorkerOptions } from "./worker";
