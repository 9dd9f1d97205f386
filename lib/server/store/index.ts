import "server-only";
import { join } from "node:path";
import { type Db, openDb } from "@/lib/db/db";
import { runMigrations, type StoreLayout } from "@/lib/db/migrate";
import { fillTicketSearchNames } from "./ticket-search";

/**
 * The dashboard's SQL, resolved from the project root (Next bundles server code elsewhere):
 * migrations (tables, data changes) and function files (the triggers that keep the aggregates,
 * the device tables, the name index; the history tables' guards).
 */
export const DASHBOARD_STORE: StoreLayout = {
  migrations: join(process.cwd(), "lib/server/store/migrations"),
  functions: join(process.cwd(), "lib/server/store/functions"),
  lockKey: 3000001,
};

/** Opens the dashboard store (PostgreSQL with a URL, else PGlite under `<dataDir>/dashboard`) and migrates it. */
export async function openDashboardStore(options: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  const db = await openDb({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir === undefined ? undefined : join(options.dataDir, "dashboard"),
  });
  await runMigrations(db, DASHBOARD_STORE);
  await fillTicketSearchNames(db);
  return db;
}
