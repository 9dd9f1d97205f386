import { z } from "zod";
import { Ping } from "@/lib/contract/resources";
import { ErrorInfo } from "./staff";
import { QuotaState, SyncStatus } from "./sync";

/** GET /api/connection: a live ping of the upstream (the key, its quota) and the sync status. */
export const ConnectionReport = z.object({
  upstream: z.string(),
  /** The event's time zone (all times are shown in it, never the browser's). */
  timeZone: z.string(),
  ping: Ping.nullable(),
  pingError: ErrorInfo.nullable(),
  quota: QuotaState.nullable(),
  sync: SyncStatus,
  checkedAt: z.string(),
});
export type ConnectionReport = z.output<typeof ConnectionReport>;
