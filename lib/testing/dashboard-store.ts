import "server-only";
import type { Db } from "@/lib/db/db";
import { runMigrations } from "@/lib/db/migrate";
import { openTestDb, testDatabaseUrls } from "@/lib/testing/test-db";
import { DASHBOARD_STORE } from "../server/store";

/** A migrated dashboard store for tests: PGlite in memory, or a throwaway schema when DATABASE_URL is set. */
export async function openTestDashboardStore(): Promise<Db> {
  return openTestDb(testDatabaseUrls.dashboard, {
    key: "dashboard-migrated",
    build: async (db) => {
      await runMigrations(db, DASHBOARD_STORE);
    },
  });
}
