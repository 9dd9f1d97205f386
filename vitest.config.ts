import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      "server-only": fileURLToPath(new URL("./lib/testing/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".data/**", ".next/**"],
    environment: "node",
    // Built test stores (migrated, seeded), copied by each test that opens one: lib/testing/test-db.ts.
    globalSetup: ["lib/testing/test-store-cache.ts"],
    // PGlite instances are heavy (WASM); two cores on CI machines.
    maxWorkers: 2,
    // Each test file in a worker thread of its own (its own modules, globals and copy of
    // process.env, as in a child process), which starts and loads its modules faster than a fork:
    // the whole suite in ~20% less CPU time than with "forks".
    pool: "threads",
    // Hang detectors, not speed limits: `npm test` runs vitest at the lowest priority beside the
    // browser tests (scripts/run-tests.mjs), where a test may wait minutes for the CPU.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
