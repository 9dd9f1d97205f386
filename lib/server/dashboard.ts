import "server-only";
import type { Db } from "@/lib/db/db";
import { type DashboardConfig, dashboardConfig } from "./config";
import { openDashboardStore } from "./store";

export interface Dashboard {
  config: DashboardConfig;
  db: Db;
}

// One per process, kept on globalThis so that module re-evaluation (dev reloads) reuses it.
const holder = globalThis as typeof globalThis & { __dashboard?: Promise<Dashboard> };

/** The process's configuration and store, opened once. */
export function getDashboard(): Promise<Dashboard> {
  holder.__dashboard ??= (async () => {
    const config = dashboardConfig();
    const db = await openDashboardStore({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    return { config, db };
  })();
  return holder.__dashboard;
}
