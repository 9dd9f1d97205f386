import { randomBytes } from "node:crypto";
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

/** A test store: PGlite in memory, or a throwaway schema on `databaseUrl` when it is set. */
export async function openTestDb(databaseUrl: string | undefined): Promise<Db> {
  if (!databaseUrl) return openDb({});
  const schema = await createTestSchema(databaseUrl);
  let db: Db;
  try {
    db = await openDb({ databaseUrl: schema.url });
  } catch (err) {
    await schema.drop();
    throw err;
  }
  return {
    ...db,
    close: async () => {
      await db.close();
      await schema.drop();
    },
  };
}

/**
 * The PostgreSQL URLs the store suites run against when the CI's second pass sets them; read here
 * once so that test files do not each read the environment.
 */
export const testDatabaseUrls = {
  api: process.env.API_DATABASE_URL || undefined,
  dashboard: process.env.DATABASE_URL || undefined,
};
