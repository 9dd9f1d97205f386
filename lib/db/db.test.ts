import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDb, StoreInUseError } from "./db";
import { openTestDb, testDatabaseUrls } from "./test-store";

describe("embedded store lock", () => {
  it("refuses a data directory another live process holds, and takes over a dead one's", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "store-lock-")), "pglite");
    // The parent of the test worker is alive: its lock must be respected.
    writeFileSync(`${dataDir}.lock`, String(process.ppid));
    await expect(openDb({ dataDir })).rejects.toBeInstanceOf(StoreInUseError);

    writeFileSync(`${dataDir}.lock`, "999999999");
    const db = await openDb({ dataDir });
    expect(await db.query<{ one: number }>("select 1 as one")).toEqual([{ one: 1 }]);
    await db.close();
  });

  it("runs a transaction as one unit: a throw rolls every statement back", async () => {
    const db = await openTestDb(testDatabaseUrls.dashboard ?? testDatabaseUrls.api);
    await db.exec("create table t (n int)");
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into t values (1)");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await db.query("select * from t")).toEqual([]);
    await db.close();
  });
});
