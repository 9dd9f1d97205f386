import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import pg from "pg";
import { isoFromPostgres } from "./rows";

/** Anything that runs one parameterised statement. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * The store's connection: PGlite embedded by default, PostgreSQL when a URL is given.
 * Both speak the same SQL, so every query and migration is written once.
 */
export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs fn in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, to open copies from (`initialData`; tests). */
  dumpDataDir?(): Promise<Blob>;
}

export interface DbOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; when absent PGlite is in memory (tests). */
  dataDir?: string;
  /** PGlite in memory: starts as a copy of this dumped data directory (`Db.dumpDataDir`), not empty. */
  initialData?: Blob;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openPglite(options.dataDir, options.initialData);
}

/** Thrown when an embedded store is already open in another live process. */
export class StoreInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The embedded store ${dataDir} is in use by process ${pid}; stop it first (or use PostgreSQL).`);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is a single-process database: two processes on one data directory would corrupt it.
 * A lock file holding the owner's pid keeps a second one out; a dead owner's lock is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(readFileSync(lockFile, "utf8").trim());
      if (owner && owner !== process.pid && processAlive(owner)) throw new StoreInUseError(dataDir, owner);
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

async function openPglite(dataDir?: string, initialData?: Blob): Promise<Db> {
  let unlock = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  let lite: PGlite;
  try {
    // Both stores answer alike: timestamps as ISO 8601 UTC strings (jsonb is parsed by both already).
    const parsers = {
      [pgliteTypes.TIMESTAMPTZ]: isoFromPostgres,
      [pgliteTypes.TIMESTAMP]: isoFromPostgres,
    };
    lite = await PGlite.create(dataDir ? { dataDir, parsers } : { parsers, loadDataDir: initialData });
  } catch (err) {
    unlock();
    throw err;
  }
  const run = async <T>(target: Pick<PGlite, "query">, sql: string, params?: unknown[]) =>
    (await target.query<T>(sql, params)).rows;
  return {
    kind: "pglite",
    query: (sql, params) => run(lite, sql, params),
    exec: async (sql) => {
      await lite.exec(sql);
    },
    transaction: (fn) => lite.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) })),
    close: async () => {
      await lite.close();
      unlock();
    },
    dumpDataDir: () => lite.dumpDataDir("none"),
  };
}

// int8 and numeric come back as strings from node-postgres; our sums fit in a double exactly.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
// Timestamps as ISO 8601 UTC strings, as PGlite answers them (see openPglite).
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, isoFromPostgres);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, isoFromPostgres);

async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on("error", () => {
    // An idle client lost its connection; the pool replaces it on the next checkout.
  });
  await pool.query("select 1");
  return {
    kind: "postgres",
    query: async (sql, params) => (await pool.query(sql, params as unknown[])).rows,
    exec: async (sql) => {
      await pool.query(sql);
    },
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn({
          query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
        });
        await client.query("commit");
        return result;
      } catch (err) {
        await client.query("rollback").catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
