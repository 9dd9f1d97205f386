import type { Ping } from "@/lib/contract/resources";
import type { SyncStatus } from "@/lib/server/sync/status";
import type { RateLimitState } from "@/lib/server/upstream/client";

/** What GET /api/connection answers (types only: safe for client components). */
export interface ConnectionReport {
  upstream: string;
  /** The event's time zone (all times are shown in it, never the browser's). */
  timeZone: string;
  ping: Ping | null;
  pingError: { status: number; code: string; message: string; request_id: string | null } | null;
  quota: RateLimitState | null;
  sync: SyncStatus;
  checkedAt: string;
}
