import { fileURLToPath } from "node:url";
import { runMigrations } from "../../lib/db/migrate";
import type { Db } from "./db";

const migrationsDir = fileURLToPath(new URL("./migrations/", import.meta.url));

/** Brings the service's schema up to date (integration-api/store/migrations). */
export function migrate(db: Db): Promise<string[]> {
  return runMigrations(db, migrationsDir, 4010001);
}
