import "server-only";
import type { z } from "zod";
import type { ConnectionReport } from "@/lib/shared/api/connection";
import { isConsoleError } from "@/lib/shared/api/errors";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { liveLookup } from "../http/lookup-budget";
import { isUpstreamError, upstreamErrorInfo } from "../http/upstream-errors";
import { eventFormat } from "../store/event-settings";
import { syncStatus } from "../sync/status";

/** The connection screen: a live GET /ping (the key's scopes, restrictions, quota) and the sync status. */
export async function connectionReport(
  dashboard: Dashboard,
  user: SessionUser,
): Promise<z.input<typeof ConnectionReport>> {
  let ping = null;
  let pingError = null;
  try {
    ping = await dashboard.upstream.ping(liveLookup(dashboard, user));
  } catch (err) {
    // Over the lookup budget, the screen still shows the sync status; the ping says why it is missing.
    if (isConsoleError(err) && err.status === 429)
      pingError = { status: 429, code: err.code, message: err.message, request_id: null };
    else if (isUpstreamError(err)) pingError = upstreamErrorInfo(err);
    else throw err;
  }
  const now = dashboard.clock();
  return {
    upstream: dashboard.config.CASHLESS_API_URL,
    timeZone: (await eventFormat(dashboard.db)).timeZone,
    ping,
    pingError,
    quota: dashboard.upstream.readQuota ?? null,
    sync: await syncStatus(dashboard.db, { now }),
    checkedAt: now.toISOString(),
  };
}
