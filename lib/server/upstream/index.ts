import "server-only";
import { type DashboardConfig, dashboardConfig } from "@/lib/server/config";
import { UpstreamClient } from "./client";

export * from "./client";

// One client per process, kept on globalThis (dev reloads re-evaluate modules): the sync worker and
// the interactive lookups then share the last seen x-ratelimit-* state of the key.
const holder = globalThis as typeof globalThis & { __upstreamClient?: UpstreamClient };

/** The process's client of the Integration API (CASHLESS_API_URL, CASHLESS_API_KEY). */
export function getUpstreamClient(config: DashboardConfig = dashboardConfig()): UpstreamClient {
  holder.__upstreamClient ??= new UpstreamClient({
    baseUrl: config.CASHLESS_API_URL,
    apiKey: config.CASHLESS_API_KEY,
  });
  return holder.__upstreamClient;
}
