import "server-only";
import { sessionOfRequest } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { eventStream, pushBus } from "../push";

/**
 * The push stream of one signed-in browser (GET /api/stream): this instance's bus (on PostgreSQL
 * listening to the other instances), the configured heartbeat, the session checked again at each.
 */
export function pushStream(dashboard: Dashboard, request: Request): Response {
  const { config, db } = dashboard;
  const bus = pushBus(db);
  if (config.DATABASE_URL) bus.listen(config.DATABASE_URL);
  return eventStream({
    bus,
    lastEventId: request.headers.get("last-event-id"),
    heartbeatMs: config.PUSH_HEARTBEAT_S * 1000,
    retryMs: config.PUSH_RETRY_S * 1000,
    stillSignedIn: async () => (await sessionOfRequest(db, config, request, dashboard.clock())) !== null,
    signal: request.signal,
    now: () => dashboard.clock().getTime(),
  });
}
