import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropTestDatabases, runTemplatePrefix, STORE_CACHE_ENV, testDatabaseUrls } from "./test-db";

/**
 * Vitest global setup: a directory for this run's built test stores (test-db.ts), named to the
 * test processes in the environment and removed after the run, with the run's template databases
 * on PostgreSQL, so no store outlives the code (migrations, seed) that built it.
 */
export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), "vitest-stores-"));
  process.env[STORE_CACHE_ENV] = dir;
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    const servers = new Set(
      [testDatabaseUrls.api, testDatabaseUrls.dashboard].filter((u) => u !== undefined),
    );
    for (const url of servers) await dropTestDatabases(url, runTemplatePrefix(dir));
  };
}
