import { NextResponse } from "next/server";
import { route } from "@/lib/server/guard";
import { syncStatus } from "@/lib/server/sync";
import { getUpstreamClient, isApiError } from "@/lib/server/upstream";

/** The connection screen: a live GET /ping (the key's scopes, restrictions, quota) and the sync status. */
export const GET = route("connection.view", async ({ dashboard }) => {
  const client = getUpstreamClient(dashboard.config);
  let ping = null;
  let pingError = null;
  try {
    ping = await client.ping();
  } catch (err) {
    if (!isApiError(err)) throw err;
    pingError = { status: err.status, code: err.code, message: err.message, request_id: err.request_id };
  }
  const [event] = await dashboard.db.query<{ time_zone: string }>("select time_zone from m_event limit 1");
  return NextResponse.json({
    upstream: dashboard.config.CASHLESS_API_URL,
    timeZone: event?.time_zone ?? "UTC",
    ping,
    pingError,
    quota: client.readQuota ?? null,
    sync: await syncStatus(dashboard.db),
    checkedAt: new Date().toISOString(),
  });
});
