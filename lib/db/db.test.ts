import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openTestDb, testDatabaseUrls } from "../testing/test-db";
import { openDb, StoreInUseError } from "./db";
import { isoFromPostgres } from "./rows";

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

describe("row values", () => {
  it("answers timestamps as ISO 8601 UTC strings and jsonb as values, whatever the session's zone", async () => {
    const db = await openTestDb(testDatabaseUrls.dashboard ?? testDatabaseUrls.api);
    await db.exec("set time zone 'America/Santiago'");
    await db.exec("create table r (at timestamptz, plain timestamp, doc jsonb)");
    await db.query("insert into r values ($1, $2, $3::jsonb)", [
      "2026-03-29T01:30:00.123456+01:00",
      "2026-03-29 01:30:00.5",
      JSON.stringify({ a: [1, "x"], b: null }),
    ]);
    const [row] = await db.query<{ at: unknown; plain: unknown; doc: unknown }>("select * from r");
    expect(row).toEqual({
      at: "2026-03-29T00:30:00.123Z",
      plain: "2026-03-29T01:30:00.500Z",
      doc: { a: [1, "x"], b: null },
    });
    const [inTx] = await db.transaction((tx) => tx.query<{ at: unknown }>("select at from r"));
    expect(inTx?.at).toBe("2026-03-29T00:30:00.123Z");
    await db.close();
  });
});

describe("isoFromPostgres", () => {
  it("reads PostgreSQL's text forms of timestamps with any offset", () => {
    expect(isoFromPostgres("2026-07-01 12:00:00+02")).toBe("2026-07-01T10:00:00.000Z");
    expect(isoFromPostgres("2026-07-01 12:00:00.1-03:30")).toBe("2026-07-01T15:30:00.100Z");
    expect(isoFromPostgres("1987-01-01 00:00:00.999999+00")).toBe("1987-01-01T00:00:00.999Z");
    expect(isoFromPostgres("2026-07-01T12:00:00Z")).toBe("2026-07-01T12:00:00.000Z");
    expect(isoFromPostgres("infinity")).toBe("infinity");
  });
});
