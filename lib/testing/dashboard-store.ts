import "server-only";
import type { Db } from "@/lib/db/db";
import { runMigrations } from "@/lib/db/migrate";
import { openTestDb, testDatabaseUrls } from "@/lib/testing/test-db";
import { DASHBOARD_MIGRATIONS_DIR } from "../server/store";

/** A migrated dashboard store for tests: PGlite in memory, or a throwaway schema when DATABASE_URL is set. */
export async function openTestDashboardStore(): Promise<Db> {
  const db = await openTestDb(testDatabaseUrls.dashboard);
  await runMigrations(db, DASHBOARD_MIGRATIONS_DIR, 3000001);
  return db;
}
