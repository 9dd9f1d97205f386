import "server-only";
import { systemClock } from "@/lib/contract/clock";
import type { Db } from "@/lib/db/db";
import { type DashboardConfig, parseDashboardConfig } from "../server/config";
import type { Dashboard } from "../server/dashboard";
import { type FetchLike, UpstreamClient, type UpstreamClientOptions } from "../server/upstream/client";

export const TEST_SESSION_SECRET = "test-session-secret-0123456789abcdef-xyz";
export const TEST_API_KEY = `eak_test_${"k".repeat(43)}`;

/**
 * A dashboard (`{ config, db, upstream, clock }`) for tests: a validated configuration (test key and
 * secret unless given), the test's store, and an upstream client on `fetch` (the in-process
 * Integration API's `app.request`, or a stand-in that refuses every request).
 */
export function testDashboard(
  db: Db,
  options: {
    env?: Record<string, string>;
    fetch?: FetchLike;
    client?: Partial<UpstreamClientOptions>;
    /** The dashboard's clock (default: the real one). */
    clock?: () => Date;
  } = {},
): Dashboard {
  const config: DashboardConfig = parseDashboardConfig({
    CASHLESS_API_KEY: TEST_API_KEY,
    SESSION_SECRET: TEST_SESSION_SECRET,
    NODE_ENV: "test",
    ...options.env,
  });
  const clock = options.clock ?? systemClock;
  const upstream = new UpstreamClient({
    baseUrl: "http://integration-api.test/v1",
    apiKey: config.CASHLESS_API_KEY,
    now: clock,
    fetch: options.fetch ?? (async () => Promise.reject(new Error("no upstream in this test"))),
    ...options.client,
  });
  return { config, db, upstream, clock, sandboxClock: null };
}

/** Makes `dashboard` the process's dashboard, as `getDashboard()` answers it to route handlers. */
export function installDashboard(dashboard: Dashboard): void {
  (globalThis as typeof globalThis & { __dashboard?: Promise<Dashboard> }).__dashboard =
    Promise.resolve(dashboard);
}
