import "server-only";
import { type Clock, SandboxClock, systemClock } from "@/lib/contract/clock";
import type { Db } from "@/lib/db/db";
import { type DashboardConfig, dashboardConfig } from "./config";
import { openDashboardStore } from "./store";
import { UpstreamClient } from "./upstream/client";

/** What every request and the sync worker share in one process: configuration, store, upstream client. */
export interface Dashboard {
  config: DashboardConfig;
  db: Db;
  /**
   * The one client of the Integration API: the sync worker and interactive lookups share its last
   * seen `x-ratelimit-*` state of the key.
   */
  upstream: UpstreamClient;
  /**
   * The instant now: what "today" is at the gate, and the minute of the per-minute rules (the lookup
   * budget). Tests set it.
   */
  clock: Clock;
  /** The sandbox's clock, which its controls move (null outside the sandbox: the system clock). */
  sandboxClock: SandboxClock | null;
}

// One per process, kept on globalThis so that module re-evaluation (dev reloads) reuses it.
const holder = globalThis as typeof globalThis & { __dashboard?: Promise<Dashboard> };

/** The process's configuration, store and upstream client, opened once. */
export function getDashboard(): Promise<Dashboard> {
  holder.__dashboard ??= (async () => {
    const config = dashboardConfig();
    const db = await openDashboardStore({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    // The sandbox's clock follows the Integration API's (scripts/start.ts passes its offset).
    const sandboxClock = config.SANDBOX === "on" ? new SandboxClock(config.SANDBOX_CLOCK_OFFSET_MS) : null;
    const clock = sandboxClock?.now ?? systemClock;
    const upstream = new UpstreamClient({
      baseUrl: config.CASHLESS_API_URL,
      apiKey: config.CASHLESS_API_KEY,
      now: clock,
    });
    return { config, db, upstream, clock, sandboxClock };
  })();
  return holder.__dashboard;
}
