import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { type Db, openDb } from "../db/db";

/**
 * Stores for tests. Without a PostgreSQL URL a test gets an in-memory PGlite; with one (the second
 * CI pass sets `API_DATABASE_URL` and `DATABASE_URL`) it gets a database of its own on that server
 * (openTestDb), or a fresh schema of its own in that database, reached through `search_path`
 * (createTestSchema, for a server process started with its URL), dropped again afterwards. Test
 * files run in parallel on one server, so each must see only its own rows — and immutable tables
 * (sign-offs) must not carry one run's rows into the next.
 */

const SCHEMA_PREFIX = "vt_";

export interface TestSchema {
  /** The connection string whose sessions use the schema (`options=-c search_path=…`). */
  url: string;
  schema: string;
  drop(): Promise<void>;
}

async function adminQuery(databaseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates an empty schema in the database of `databaseUrl` and a URL that works inside it. */
export async function createTestSchema(databaseUrl: string): Promise<TestSchema> {
  const schema = `${SCHEMA_PREFIX}${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(databaseUrl, `create schema ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  let dropped = false;
  return {
    url: url.toString(),
    schema,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await adminQuery(databaseUrl, `drop schema if exists ${schema} cascade`);
    },
  };
}

/**
 * What a test store starts with: whatever `build` makes of an empty store. `key` names the result
 * (the same key, the same contents) so that on PGlite it is built once per test run and each test
 * opens a copy of it (see `pgliteCopy`).
 */
export interface TestStoreTemplate {
  key: string;
  build(db: Db): Promise<void>;
}

const EMPTY: TestStoreTemplate = { key: "empty", build: async () => {} };

/**
 * A test store: PGlite in memory, or a throwaway database on the server of `databaseUrl` when it
 * is set; built by `template` (empty by default). Each call answers a store of its own.
 */
export async function openTestDb(
  databaseUrl: string | undefined,
  template: TestStoreTemplate = EMPTY,
): Promise<Db> {
  if (!databaseUrl) return openDb({ initialData: await pgliteCopy(template) });
  const copy = await createTestDatabase(databaseUrl, template);
  const db = await openDb({ databaseUrl: copy.url }).catch(async (err) => {
    await copy.drop();
    throw err;
  });
  return {
    ...db,
    close: async () => {
      await db.close();
      await copy.drop();
    },
  };
}

/** Prefixes of the databases tests make: a store's copy, and a run's built template. */
export const TEST_DATABASE_PREFIX = "vt_";
export const TEMPLATE_DATABASE_PREFIX = "vtt_";

const withDatabase = (databaseUrl: string, name: string) => {
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};
const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);
/** The names of the template databases of the vitest run whose store cache is `run`. */
export const runTemplatePrefix = (run: string) => `${TEMPLATE_DATABASE_PREFIX}${digest(run).slice(0, 8)}_`;

/**
 * The database `template` builds on PostgreSQL, built once per vitest run (the first worker to
 * need it builds it, under an advisory lock, and renames it into place when done) and copied by
 * `create database … template` for each store: about 50 ms against 350–450 ms for the migrations
 * and the seed. Named after the run (test-store-cache.ts drops the run's templates at its end), so
 * no template outlives the code that built it. Outside a vitest run: null, each store built anew.
 */
async function templateDatabase(databaseUrl: string, template: TestStoreTemplate): Promise<string | null> {
  const run = process.env[STORE_CACHE_ENV];
  if (!run) return null;
  const name = `${runTemplatePrefix(run)}${digest(template.key)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query("select pg_advisory_lock(hashtext($1))", [name]);
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (rowCount) return name;
    const building = `${name}_build`;
    await admin.query(`drop database if exists ${building} with (force)`);
    await admin.query(`create database ${building}`);
    const db = await openDb({ databaseUrl: withDatabase(databaseUrl, building) });
    try {
      await template.build(db);
    } finally {
      await db.close();
    }
    // Only a complete build takes the name the copies are made from.
    await admin.query(`alter database ${building} rename to ${name}`);
    return name;
  } finally {
    await admin.end(); // ends the session, and with it the advisory lock
  }
}

/** A database of its own on the server of `databaseUrl`: a copy of `template`'s, or built by it. */
async function createTestDatabase(databaseUrl: string, template: TestStoreTemplate) {
  const from = await templateDatabase(databaseUrl, template);
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(
    databaseUrl,
    from ? `create database ${name} template ${from}` : `create database ${name}`,
  );
  let dropped = false;
  const copy = {
    url: withDatabase(databaseUrl, name),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await adminQuery(databaseUrl, `drop database if exists ${name} with (force)`);
    },
  };
  if (!from) {
    const db = await openDb({ databaseUrl: copy.url });
    try {
      await template.build(db);
    } catch (err) {
      await copy.drop();
      throw err;
    } finally {
      await db.close();
    }
  }
  return copy;
}

/** Drops the databases whose names start with `prefix` (a run's templates, or every leftover). */
export async function dropTestDatabases(databaseUrl: string, prefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "select datname from pg_database where starts_with(datname, $1)",
      [prefix],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
  } finally {
    await admin.end();
  }
}

/**
 * The cache of built stores, a directory the vitest run makes (test-store-cache.ts) and names in
 * this variable; without it each test process keeps its own in memory.
 */
export const STORE_CACHE_ENV = "TEST_STORE_CACHE";
const inProcess = new Map<string, Promise<Blob>>();

/**
 * The PGlite data directory `template` builds, dumped. A fresh PGlite spends seconds in initdb, and
 * migrations and seeds add more: so the first test worker to need a template builds it, dumps it
 * to the run's cache (under a lock file, written then renamed), and every store of that template is
 * a copy loaded from there.
 */
function pgliteCopy(template: TestStoreTemplate): Promise<Blob> {
  let dump = inProcess.get(template.key);
  if (!dump) {
    dump = cachedDump(template);
    inProcess.set(template.key, dump);
    dump.catch(() => inProcess.delete(template.key));
  }
  return dump;
}

async function buildDump(template: TestStoreTemplate): Promise<Blob> {
  const db = await openDb(template === EMPTY ? {} : { initialData: await pgliteCopy(EMPTY) });
  try {
    await template.build(db);
    return await db.dumpDataDir!();
  } finally {
    await db.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the lock file (holding this pid); false while another live process holds it. */
function tryLock(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: "wx" });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  let owner: number;
  try {
    owner = Number(readFileSync(lock, "utf8")) || 0;
  } catch {
    return false; // released just now: the next round takes it
  }
  try {
    if (owner) process.kill(owner, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") rmSync(lock, { force: true }); // its builder died
  }
  return false;
}

async function cachedDump(template: TestStoreTemplate): Promise<Blob> {
  const dir = process.env[STORE_CACHE_ENV];
  if (!dir) return buildDump(template);
  const file = join(dir, `${createHash("sha256").update(template.key).digest("hex").slice(0, 32)}.tar`);
  const lock = `${file}.lock`;
  const cached = () => (existsSync(file) ? new Blob([readFileSync(file)]) : null);
  // Another process (or thread) building it: wait for its file, a few minutes at most.
  const giveUp = Date.now() + 300_000;
  let locked = false;
  for (;;) {
    const dump = cached();
    if (dump) return dump;
    locked = tryLock(lock);
    if (locked || Date.now() > giveUp) break;
    await sleep(100);
  }
  try {
    const done = cached(); // finished between the last look and the lock
    if (done) return done;
    const dump = await buildDump(template);
    const partial = `${file}.${randomBytes(6).toString("hex")}.partial`;
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  } finally {
    if (locked) rmSync(lock, { force: true });
  }
}

/**
 * The PostgreSQL URLs the store suites run against when the CI's second pass sets them; read here
 * once so that test files do not each read the environment.
 */
export const testDatabaseUrls = {
  api: process.env.API_DATABASE_URL || undefined,
  dashboard: process.env.DATABASE_URL || undefined,
};
