import "server-only";
import type { Db } from "@/lib/db/db";
import { runMigrations } from "@/lib/db/migrate";
import { openTestDb, testDatabaseUrls } from "@/lib/db/test-store";
import { DASHBOARD_MIGRATIONS_DIR } from "./index";

/** A migrated dashboard store for tests: PGlite in memory, or a throwaway schema when DATABASE_URL is set. */
export async function openTestDashboardStore(): Promise<Db> {
  const db = await openTestDb(testDatabaseUrls.dashboard);
  await runMigrations(db, DASHBOARD_MIGRATIONS_DIR, 3000001);
  return db;
}
