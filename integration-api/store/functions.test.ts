import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../../lib/db/migrate";
import {
  expectStoreEqualsFiles,
  LEGACY_COMMIT,
  migrateAsAt,
  migrationsDefiningLogic,
  storeState,
} from "../../lib/testing/store-definitions";
import { openTestDb, testDatabaseUrls } from "../../lib/testing/test-db";
import { seedDemo } from "../seed/demo-seed";
import { TEST_NOW } from "../testing/test-api";
import type { Db } from "./db";
import { API_STORE, migrate } from "./migrate";

/**
 * The service store's functions and triggers (the kept sales summary) are its function files, on a
 * fresh store and on one the code before them made, which ends in exactly a fresh one's state.
 * PGlite; API_DATABASE_URL runs it in throwaway PostgreSQL schemas.
 */

let fresh: Db;
let upgraded: Db;
let upgradeRebuilds: string[] = [];
const seed = (db: Db) => seedDemo(db, { scale: 0.01, random: 5, now: TEST_NOW });

beforeAll(async () => {
  fresh = await openTestDb(testDatabaseUrls.api);
  await migrate(fresh);
  await seed(fresh);
  upgraded = await openTestDb(testDatabaseUrls.api);
  await migrateAsAt(upgraded, LEGACY_COMMIT, "integration-api/store/migrations", API_STORE.lockKey);
  await seed(upgraded);
  // Drift, as a changed trigger function would leave it, for the upgrade's rebuild to repair.
  await upgraded.query("update summary_sales set total = total + 1");
  await upgraded.query("delete from summary_flows where direction = 'withdraw'");
  upgradeRebuilds = (await runMigrations(upgraded, API_STORE)).rebuilds;
});
afterAll(async () => {
  await fresh?.close();
  await upgraded?.close();
});

describe("the service store's functions and triggers", () => {
  it("are defined by no migration", () => {
    expect(migrationsDefiningLogic(API_STORE.migrations)).toEqual([]);
  });

  it("are the function files' on a fresh store", async () => {
    await expectStoreEqualsFiles(fresh, API_STORE.functions!);
  });

  it("are the function files' on a store made before them, whose summary is rebuilt once", async () => {
    await expectStoreEqualsFiles(upgraded, API_STORE.functions!);
    expect(upgradeRebuilds).toEqual(["select summary_recompute()"]);
    const state = await storeState(fresh);
    for (const kept of ["summary_sales", "summary_flows", "summary_product"])
      expect(state.rows[kept]?.length, kept).toBeGreaterThan(0);
    expect(await storeState(upgraded)).toEqual(state);
    expect(await migrate(upgraded)).toEqual({ migrations: [], rebuilds: [] });
  });
});
