import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStoreEqualsFiles, storeFunctions, storeTriggers } from "../testing/store-definitions";
import { openTestDb, testDatabaseUrls } from "../testing/test-db";
import type { Db } from "./db";
import { runMigrations, type StoreLayout } from "./migrate";

/**
 * The runner's function files on a small store of its own (PGlite; DATABASE_URL: a throwaway
 * PostgreSQL schema): applied at every start after the migrations, what no file declares dropped,
 * and the declared rebuilds run once when a file changed. Each test starts from the last one's store.
 */

const root = mkdtempSync(join(tmpdir(), "store-functions-"));
const layout: StoreLayout = {
  migrations: join(root, "migrations"),
  functions: join(root, "functions"),
  lockKey: 1,
};
const write = (dir: string, name: string, text: string) => writeFileSync(join(dir, name), text);
const remove = (dir: string, name: string) => rmSync(join(dir, name));

const WEIGHT = (factor: number) => `-- rebuild: select totals_recompute();
create or replace function item_weight(amount integer) returns bigint language sql immutable as $$
  select amount::bigint * ${factor}
$$;
`;
const CHANGED = `-- rebuild: select totals_recompute();
create or replace function items_changed() returns trigger language plpgsql as $$
begin
  update totals set weight = weight + item_weight(new.amount);
  return null;
end $$;

create or replace trigger items_added after insert on items
  for each row execute function items_changed();
`;
const RECOMPUTE = `-- rebuild: select totals_recompute();
create or replace function totals_recompute() returns void language plpgsql as $$
begin
  update totals set weight = coalesce((select sum(item_weight(amount)) from items), 0);
end $$;
`;

let db: Db;
const total = async () => (await db.query<{ weight: number }>("select weight from totals"))[0]!.weight;
const functionNames = async () => (await storeFunctions(db)).map((f) => f.identity);

beforeAll(async () => {
  mkdirSync(layout.migrations);
  mkdirSync(layout.functions!);
  write(
    layout.migrations,
    "001_items.sql",
    `create table items (id integer primary key, amount integer not null);
create table totals (id boolean primary key default true check (id), weight bigint not null);
insert into totals (weight) values (0);
`,
  );
  write(layout.functions!, "01-item-weight.sql", WEIGHT(1));
  write(layout.functions!, "02-items-changed.sql", CHANGED);
  write(layout.functions!, "03-totals-recompute.sql", RECOMPUTE);
  db = await openTestDb(testDatabaseUrls.dashboard);
});
afterAll(async () => {
  await db?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("function files", () => {
  it("are applied after the migrations of a fresh store, with their rebuild run once", async () => {
    expect(await runMigrations(db, layout)).toEqual({
      migrations: ["001_items.sql"],
      rebuilds: ["select totals_recompute()"],
    });
    await expectStoreEqualsFiles(db, layout.functions!);
    await db.query("insert into items values (1, 10), (2, 20)");
    expect(await total()).toBe(30);
  });

  it("are applied again at the next start, which rebuilds nothing when no file changed", async () => {
    await db.query("update totals set weight = 999");
    expect(await runMigrations(db, layout)).toEqual({ migrations: [], rebuilds: [] });
    expect(await total()).toBe(999);
    await db.query("select totals_recompute()");
  });

  it("rebuild what they derive when one changes, with no migration", async () => {
    write(layout.functions!, "01-item-weight.sql", WEIGHT(2));
    expect(await runMigrations(db, layout)).toEqual({
      migrations: [],
      rebuilds: ["select totals_recompute()"],
    });
    expect(await total()).toBe(60);
    await db.query("insert into items values (3, 5)");
    expect(await total()).toBe(70);
  });

  it("take their function and triggers with them when deleted", async () => {
    remove(layout.functions!, "02-items-changed.sql");
    await runMigrations(db, layout);
    await expectStoreEqualsFiles(db, layout.functions!);
    expect(await storeTriggers(db)).toEqual([]);
    expect(await functionNames()).toEqual(["item_weight(integer)", "totals_recompute()"]);
    await db.query("insert into items values (4, 1)");
    expect(await total()).toBe(70);
    write(layout.functions!, "02-items-changed.sql", CHANGED);
  });

  it("leave no old signature, nor a function made by hand, behind; other schemas are not theirs", async () => {
    write(
      layout.functions!,
      "01-item-weight.sql",
      WEIGHT(2).replace("amount integer)", "amount integer, factor integer default 1)"),
    );
    const other = `other_${randomBytes(4).toString("hex")}`;
    await db.query(`create schema ${other}`);
    try {
      await db.query(`create function ${other}.kept() returns int language sql as $$ select 1 $$`);
      await db.query("create function made_by_hand() returns int language sql as $$ select 1 $$");
      await runMigrations(db, layout);
      expect(await functionNames()).toEqual([
        "item_weight(integer,integer)",
        "items_changed()",
        "totals_recompute()",
      ]);
      expect(await db.query(`select ${other}.kept() as kept`)).toEqual([{ kept: 1 }]);
    } finally {
      await db.query(`drop schema ${other} cascade`);
    }
  });

  it("run the rebuild a migration declares, after the functions", async () => {
    write(
      layout.migrations,
      "002_items_tenfold.sql",
      "-- rebuild: select totals_recompute();\nupdate items set amount = amount * 10;\n",
    );
    expect(await runMigrations(db, layout)).toEqual({
      migrations: ["002_items_tenfold.sql"],
      rebuilds: ["select totals_recompute()"],
    });
    expect(await total()).toBe(720);
  });

  it("leave the store as it was when a rebuild fails, and try again at the next start", async () => {
    write(
      layout.functions!,
      "04-broken.sql",
      `-- rebuild: select 1 / 0;\n${RECOMPUTE.replace(/totals_recompute/g, "broken")}`,
    );
    await expect(runMigrations(db, layout)).rejects.toThrow(/division by zero/);
    expect(await functionNames()).not.toContain("broken()");
    remove(layout.functions!, "04-broken.sql");
    expect(await runMigrations(db, layout)).toEqual({ migrations: [], rebuilds: [] });
  });
});
