import "server-only";

export { summaryTotals } from "./checksum";
export { type SyncLogger, type SyncResource, syncResources } from "./context";
export { acquireSyncLeadership, runSyncWhenLeader, SYNC_LOCK_KEY, type SyncLeadership } from "./leadership";
export { syncStatus } from "./status";
export { type CycleReport, type ResourceReport, SyncWorker, type SyncWorkerOptions } from "./worker";
