import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openTestDb, testDatabaseUrls } from "./test-db";

/**
 * Test stores (test-db.ts): each store built by a template holds what the template built, is a
 * store of its own, and the template is built once however many stores copy it (a PGlite dump, or
 * on the PostgreSQL pass a template database), the copies gone once closed.
 */

const url = testDatabaseUrls.dashboard;

describe("test stores", () => {
  it("copies a template built once into stores of their own", async () => {
    let builds = 0;
    const template = {
      key: `test-db.test ${randomUUID()}`,
      build: async (db: { exec(sql: string): Promise<void> }) => {
        builds += 1;
        await db.exec(
          "create table notes (id int primary key, body text); insert into notes values (1, 'built')",
        );
      },
    };
    const first = await openTestDb(url, template);
    const second = await openTestDb(url, template);
    try {
      expect(builds).toBe(1);
      await first.query("insert into notes values (2, 'only in the first')");
      expect(await first.query("select body from notes order by id")).toEqual([
        { body: "built" },
        { body: "only in the first" },
      ]);
      expect(await second.query("select body from notes order by id")).toEqual([{ body: "built" }]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it.skipIf(!url)("drops a store's database when it is closed", async () => {
    const db = await openTestDb(url);
    const [{ name }] = await db.query<{ name: string }>("select current_database() as name");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const exists = async () =>
        (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount;
      expect(await exists()).toBe(1);
      await db.close();
      expect(await exists()).toBe(0);
    } finally {
      await admin.end();
    }
  });
});
