import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectStoreEqualsFiles,
  expectUpgradedEqualsFresh,
  freshAndUpgraded,
  migrationsDefiningLogic,
} from "../../lib/testing/store-definitions";
import { openTestDb, testDatabaseUrls } from "../../lib/testing/test-db";
import { seedDemo } from "../seed/demo-seed";
import { TEST_NOW } from "../testing/test-api";
import type { Db } from "./db";
import { API_STORE } from "./migrate";

/**
 * The service store's functions and triggers (the kept sales summary) are its function files, on a
 * fresh store and on one the code before them made, which ends in exactly a fresh one's state.
 * PGlite; API_DATABASE_URL runs it in throwaway PostgreSQL schemas.
 */

let fresh: Db;
let upgraded: Db;
let upgradeRebuilds: string[] = [];

beforeAll(async () => {
  ({
    fresh,
    upgraded,
    rebuilds: upgradeRebuilds,
  } = await freshAndUpgraded({
    layout: API_STORE,
    migrations: "integration-api/store/migrations",
    open: () => openTestDb(testDatabaseUrls.api),
    fill: (db) => seedDemo(db, { scale: 0.01, random: 5, now: TEST_NOW }),
    drift: [
      "update summary_sales set total = total + 1",
      "delete from summary_flows where direction = 'withdraw'",
    ],
  }));
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
    expect(upgradeRebuilds).toEqual(["select summary_recompute()"]);
    await expectUpgradedEqualsFresh(fresh, upgraded, API_STORE, [
      "summary_sales",
      "summary_flows",
      "summary_product",
    ]);
  });
});
