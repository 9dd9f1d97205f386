import "server-only";
import { join } from "node:path";
import { type Db, openDb } from "@/lib/db/db";
import { runMigrations } from "@/lib/db/migrate";
import { fillTicketSearchNames } from "./ticket-search";

/** The dashboard's migrations, resolved from the project root (Next bundles server code elsewhere). */
export const DASHBOARD_MIGRATIONS_DIR = join(process.cwd(), "lib/server/store/migrations");

/** Opens the dashboard store (PostgreSQL with a URL, else PGlite under `<dataDir>/dashboard`) and migrates it. */
export async function openDashboardStore(options: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  const db = await openDb({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir === undefined ? undefined : join(options.dataDir, "dashboard"),
  });
  await runMigrations(db, DASHBOARD_MIGRATIONS_DIR, 3000001);
  await fillTicketSearchNames(db);
  return db;
}
