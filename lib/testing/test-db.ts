import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { type Db, openDb } from "../db/db";

/**
 * Stores for tests. Without a PostgreSQL URL a test gets an in-memory PGlite; with one (the second
 * CI pass sets `API_DATABASE_URL` and `DATABASE_URL`) it gets a fresh schema of its own in that
 * database, reached through `search_path`, and dropped again afterwards. Test files run in
 * parallel on one shared database, so each must see only its own rows — and immutable tables
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
 * A test store: PGlite in memory, or a throwaway schema on `databaseUrl` when it is set; built by
 * `template` (empty by default). Each call answers a store of its own.
 */
export async function openTestDb(
  databaseUrl: string | undefined,
  template: TestStoreTemplate = EMPTY,
): Promise<Db> {
  if (!databaseUrl) return openDb({ initialData: await pgliteCopy(template) });
  const schema = await createTestSchema(databaseUrl);
  const dropped = async (err: unknown): Promise<never> => {
    await schema.drop();
    throw err;
  };
  const db = await openDb({ databaseUrl: schema.url }).catch(dropped);
  await template.build(db).catch(async (err) => {
    await db.close().catch(() => undefined);
    return dropped(err);
  });
  return {
    ...db,
    close: async () => {
      await db.close();
      await schema.drop();
    },
  };
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
