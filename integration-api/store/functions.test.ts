import { describeStoreFunctions } from "../../lib/testing/store-definitions";
import { openTestDb, testDatabaseUrls } from "../../lib/testing/test-db";
import { seedDemo } from "../seed/demo-seed";
import { TEST_NOW } from "../testing/test-api";
import { API_STORE } from "./migrate";

/**
 * The service store's functions and triggers (the kept sales summary) are its function files, on a
 * fresh store and on one the code before them made, which ends in exactly a fresh one's state.
 * PGlite; API_DATABASE_URL runs it in throwaway PostgreSQL schemas.
 */

describeStoreFunctions("service", {
  layout: API_STORE,
  migrations: "integration-api/store/migrations",
  open: () => openTestDb(testDatabaseUrls.api),
  fill: (db) => seedDemo(db, { scale: 0.01, random: 5, now: TEST_NOW }),
  drift: [
    "update summary_sales set total = total + 1",
    "delete from summary_flows where direction = 'withdraw'",
  ],
  rebuilds: ["select summary_recompute()"],
  derived: ["summary_sales", "summary_flows", "summary_product"],
});
