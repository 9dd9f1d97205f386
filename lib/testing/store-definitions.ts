import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, Queryable } from "../db/db";
import { runMigrations, type StoreLayout } from "../db/migrate";
import { readSqlFiles } from "../db/sql-files";

/**
 * What a store's function files declare, read from the files themselves, and what a store holds,
 * read from PostgreSQL's catalog, so that tests can compare the two (and two stores).
 */

/** A trigger as declared: name, table, timing and events (in a fixed order), level, the function it runs. */
export interface TriggerShape {
  name: string;
  table: string;
  timing: string;
  events: string;
  level: string;
  fn: string;
}

export interface Declared {
  /** Function name → its body (what PostgreSQL keeps in pg_proc.prosrc). */
  functions: Map<string, string>;
  triggers: TriggerShape[];
  /** File name → the one function it declares. */
  files: Map<string, string>;
}

const FUNCTION = /create\s+or\s+replace\s+function\s+([a-z_][a-z0-9_]*)\s*\(/gi;
const TRIGGER =
  /create\s+(?:or\s+replace\s+)?trigger\s+(\w+)\s+(before|after|instead\s+of)\s+([\s\S]+?)\s+on\s+(?:\w+\.)?(\w+)\s[\s\S]*?for\s+each\s+(row|statement)\s[\s\S]*?execute\s+(?:function|procedure)\s+(?:\w+\.)?(\w+)\s*\(/gi;

/** The trigger statements of `sql` (a file's text or pg_get_triggerdef's), normalized alike. */
export function triggersIn(sql: string): TriggerShape[] {
  return [...sql.matchAll(TRIGGER)].map((m) => ({
    name: m[1]!,
    timing: m[2]!.toLowerCase().replace(/\s+/g, " "),
    events: m[3]!.toLowerCase().replace(/\s+/g, " ").split(" or ").sort().join(" or "),
    table: m[4]!,
    level: m[5]!.toLowerCase(),
    fn: m[6]!,
  }));
}

/** The body of the function whose `create` statement starts at `from`: the text between its dollar quotes. */
function bodyAfter(sql: string, from: number): string {
  const open = /\bas\s+(\$[A-Za-z_]*\$)/gi;
  open.lastIndex = from;
  const m = open.exec(sql);
  if (!m) throw new Error(`no dollar-quoted body after offset ${from}`);
  const start = m.index + m[0].length;
  const end = sql.indexOf(m[1]!, start);
  return sql.slice(start, end);
}

/** Reads the function files of `dir`: one function each, named like the file (`NN-name-of-it.sql`). */
export function declaredIn(dir: string): Declared {
  const declared: Declared = { functions: new Map(), triggers: [], files: new Map() };
  for (const file of readSqlFiles(dir)) {
    const text = file.text
      .split("\n")
      .filter((line) => !line.trim().startsWith("--"))
      .join("\n");
    const found = [...text.matchAll(FUNCTION)];
    expect(
      found.map((m) => m[1]),
      `${file.name} declares one function`,
    ).toHaveLength(1);
    const name = found[0]![1]!;
    expect(file.name, "the file is named after its function").toBe(
      `${file.name.split("-")[0]}-${name.replaceAll("_", "-")}.sql`,
    );
    expect(declared.functions.has(name), `${name} is declared in one file`).toBe(false);
    declared.functions.set(name, bodyAfter(text, found[0]!.index));
    declared.files.set(file.name, name);
    for (const trigger of triggersIn(text)) {
      expect(trigger.fn, `${file.name}: its triggers call its function`).toBe(name);
      declared.triggers.push(trigger);
    }
  }
  return declared;
}

/** Functions of the store's schema (extensions' left out): identity, body, full definition (the schema's name left out). */
export function storeFunctions(db: Queryable) {
  return db.query<{ name: string; identity: string; body: string; definition: string }>(
    `select p.proname as name, p.oid::regprocedure::text as identity, p.prosrc as body,
       replace(pg_get_functiondef(p.oid), current_schema() || '.', '') as definition
     from pg_proc p
     where p.pronamespace = current_schema()::regnamespace and p.prokind in ('f', 'p')
       and not exists (select 1 from pg_depend d
         where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
     order by 2`,
  );
}

/** Triggers on the tables of the store's schema, as PostgreSQL prints them (the schema's name left out). */
export async function storeTriggers(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ definition: string }>(
    `select replace(pg_get_triggerdef(t.oid), current_schema() || '.', '') as definition
     from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal
     order by t.tgname, c.relname`,
  );
  return rows.map((r) => r.definition);
}

const byName = (a: TriggerShape, b: TriggerShape) =>
  `${a.name} ${a.table}`.localeCompare(`${b.name} ${b.table}`);

/**
 * The store holds exactly what the files declare: the same function names (one definition each,
 * no stale overload), each body as in its file, and the same triggers (name, table, timing and
 * events, level, function).
 */
export async function expectStoreEqualsFiles(db: Queryable, dir: string): Promise<void> {
  const declared = declaredIn(dir);
  const functions = await storeFunctions(db);
  expect(functions.map((f) => f.name).sort()).toEqual([...declared.functions.keys()].sort());
  for (const f of functions) expect(f.body, `body of ${f.identity}`).toBe(declared.functions.get(f.name));
  const triggers = triggersIn((await storeTriggers(db)).join("\n"));
  expect(triggers.sort(byName)).toEqual([...declared.triggers].sort(byName));
}

/** Migrations of `dir` that define a function or a trigger (there must be none: they live in function files). */
export function migrationsDefiningLogic(dir: string): string[] {
  const logic = /^\s*create\s+(or\s+replace\s+)?(function|trigger|procedure)\b/im;
  return readSqlFiles(dir)
    .filter((f) => logic.test(f.text.replace(/^\s*--.*$/gm, "")))
    .map((f) => f.name);
}

/**
 * Everything two stores may differ in after a start: their functions' and triggers' full
 * definitions, and every table's rows (`applied_at` columns left out: they say when).
 */
export async function storeState(db: Queryable) {
  const tables = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
     where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  );
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    const dump = await db.query<{ row: string }>(
      `select (to_jsonb(x) - 'applied_at')::text as row from ${name} x order by 1`,
    );
    rows[name] = dump.map((r) => r.row);
  }
  return {
    functions: (await storeFunctions(db)).map((f) => f.definition),
    triggers: await storeTriggers(db),
    rows,
  };
}

/** The last commit whose migrations defined the stores' functions and triggers (before the function files). */
export const LEGACY_COMMIT = "7de59e1e8e58f311dd47dcd43e26932e14e90eea";

/**
 * Builds a store as the code at `commit` left it: that commit's migrations of `dir` (a path from
 * the repository's root), applied as its runner did, without function files. Needs the commit in
 * the clone's history (CI clones it whole).
 */
export async function migrateAsAt(db: Db, commit: string, dir: string, lockKey: number): Promise<void> {
  const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8", maxBuffer: 1 << 26 });
  const old = mkdtempSync(join(tmpdir(), "legacy-migrations-"));
  try {
    for (const path of git("ls-tree", "--name-only", `${commit}:${dir}`).split("\n").filter(Boolean))
      writeFileSync(join(old, path), git("show", `${commit}:${dir}/${path}`));
    await runMigrations(db, { migrations: old, lockKey });
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
}

/**
 * Two stores given the same records by `fill`: a fresh one, and one the code at LEGACY_COMMIT made
 * (its functions defined by its migrations, which `fill` exercised), whose derived tables then
 * drift (`drift`: statements) before it starts once with the current code. Answers both and the
 * rebuilds that start ran.
 */
export async function freshAndUpgraded(options: {
  layout: StoreLayout;
  /** The migrations' folder from the repository's root. */
  migrations: string;
  open: () => Promise<Db>;
  fill: (db: Db) => Promise<unknown>;
  drift: string[];
}) {
  const { layout } = options;
  const fresh = await options.open();
  await runMigrations(fresh, layout);
  await options.fill(fresh);
  const upgraded = await options.open();
  await migrateAsAt(upgraded, LEGACY_COMMIT, options.migrations, layout.lockKey);
  await options.fill(upgraded);
  for (const statement of options.drift) await upgraded.query(statement);
  const { rebuilds } = await runMigrations(upgraded, layout);
  return { fresh, upgraded, rebuilds };
}

/**
 * The upgraded store holds the files' functions and triggers and exactly the fresh store's state
 * (every table's rows; `derived` tables not empty, so that their equality says something), and its
 * next start rebuilds nothing.
 */
export async function expectUpgradedEqualsFresh(
  fresh: Db,
  upgraded: Db,
  layout: StoreLayout,
  derived: string[],
) {
  await expectStoreEqualsFiles(upgraded, layout.functions!);
  const state = await storeState(fresh);
  for (const table of derived) expect(state.rows[table]?.length, table).toBeGreaterThan(0);
  expect(await storeState(upgraded)).toEqual(state);
  expect(await runMigrations(upgraded, layout)).toEqual({ migrations: [], rebuilds: [] });
}

/**
 * The tests every store's function files get, on PGlite and (the second pass) PostgreSQL: no
 * migration defines logic; a fresh store holds exactly the files' functions and triggers; a store
 * the code before them made (`freshAndUpgraded`) runs `rebuilds` once at its first start and ends
 * exactly as a fresh one.
 */
export function describeStoreFunctions(
  name: string,
  options: Parameters<typeof freshAndUpgraded>[0] & { rebuilds: string[]; derived: string[] },
) {
  let stores: Awaited<ReturnType<typeof freshAndUpgraded>> | undefined;
  beforeAll(async () => {
    stores = await freshAndUpgraded(options);
  });
  afterAll(async () => {
    await stores?.fresh.close();
    await stores?.upgraded.close();
  });
  describe(`the ${name} store's functions and triggers`, () => {
    it("are defined by no migration", () => {
      expect(migrationsDefiningLogic(options.layout.migrations)).toEqual([]);
    });
    it("are the function files' on a fresh store", async () => {
      await expectStoreEqualsFiles(stores!.fresh, options.layout.functions!);
    });
    it("are the function files' on a store made before them, whose derived tables are rebuilt once", async () => {
      expect(stores!.rebuilds).toEqual(options.rebuilds);
      await expectUpgradedEqualsFresh(stores!.fresh, stores!.upgraded, options.layout, options.derived);
    });
  });
}
