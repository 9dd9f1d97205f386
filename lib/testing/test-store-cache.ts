import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STORE_CACHE_ENV } from "./test-db";

/**
 * Vitest global setup: a directory for this run's built test stores (test-db.ts), named to the
 * test processes in the environment and removed after the run, so no store outlives the code
 * (migrations, seed) that built it.
 */
export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), "vitest-stores-"));
  process.env[STORE_CACHE_ENV] = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
