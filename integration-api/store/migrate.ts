import { fileURLToPath } from "node:url";
import { type MigrationRun, runMigrations, type StoreLayout } from "../../lib/db/migrate";
import type { Db } from "./db";

/** The service's SQL: migrations (tables, data changes) and function files (the kept summary's logic). */
export const API_STORE: StoreLayout = {
  migrations: fileURLToPath(new URL("./migrations/", import.meta.url)),
  functions: fileURLToPath(new URL("./functions/", import.meta.url)),
  lockKey: 4010001,
};

/** Brings the service's store up to date: pending migrations, then every function file. */
export function migrate(db: Db): Promise<MigrationRun> {
  return runMigrations(db, API_STORE);
}
