import { createTestApi } from "@/integration-api/testing/test-api";
import type { Scope } from "@/lib/contract";
import { systemClock } from "@/lib/contract/clock";
import { UpstreamClient } from "@/lib/server/upstream/client";

/** The scopes the dashboard's sync key holds: every read. */
export const READ_SCOPES: Scope[] = [
  "event.read",
  "tickets.read",
  "cashless.read",
  "checkins.read",
  "reports.read",
];

/**
 * The real Integration API in-process (small demo seed) with a read key whose quota does not bind,
 * and the dashboard's upstream client on it: what the tests that sync a real event start from.
 */
export async function realApiWithClient(options: { scale?: number } = {}) {
  const api = await createTestApi({ scale: options.scale ?? 0.05 });
  const { key } = await api.createKey({
    name: "dashboard sync",
    scopes: READ_SCOPES,
    rate_limits: { read: 100_000 },
  });
  const client = new UpstreamClient({
    baseUrl: "http://integration-api.test/v1",
    apiKey: key,
    fetch: async (url, init) => api.app.request(url, init),
    now: systemClock,
  });
  return { api, key, client };
}
