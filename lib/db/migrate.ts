import type { Db, Queryable } from "./db";
import { readSqlFiles, rebuildsOf, type SqlFile, splitStatements } from "./sql-files";
import { applyStoreFunctions } from "./store-functions";

/**
 * Where a store's SQL lives. Migrations are history (tables, indexes, views, types, data changes),
 * applied once each; function files are the current logic, one SQL function per file (a trigger
 * function's file also holds the `create or replace trigger` statements that call it), re-applied
 * at every start (store-functions.ts).
 */
export interface StoreLayout {
  /** Versioned migrations, applied once each in file-name order and recorded in schema_migrations. */
  migrations: string;
  /** Function files, applied in file-name order (dependencies first). Absent only where a test builds a store as older code left it. */
  functions?: string;
  /** PostgreSQL advisory lock that keeps two starting instances from racing. */
  lockKey: number;
}

export interface MigrationRun {
  /** The migrations this run applied. */
  migrations: string[];
  /** The rebuild statements this run executed (each once), in order. */
  rebuilds: string[];
}

/**
 * Brings a store up to date in one transaction, under an advisory lock on PostgreSQL: every
 * migration not yet recorded, then every function file, then the rebuilds declared
 * (`-- rebuild: <statement>`) by the migrations just applied and by the function files that changed
 * since the last start, each statement once.
 */
export async function runMigrations(db: Db, layout: StoreLayout): Promise<MigrationRun> {
  const migrations = readSqlFiles(layout.migrations);
  const functions = layout.functions === undefined ? null : readSqlFiles(layout.functions);
  return db.transaction(async (tx) => {
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock($1)", [layout.lockKey]);
    const applied = await applyMigrations(tx, migrations);
    const changed = functions ? await applyStoreFunctions(tx, functions) : [];
    const rebuilds = [...new Set([...applied, ...changed].flatMap(rebuildsOf))];
    for (const statement of rebuilds) await tx.query(statement);
    return { migrations: applied.map((f) => f.name), rebuilds };
  });
}

async function applyMigrations(tx: Queryable, files: SqlFile[]): Promise<SqlFile[]> {
  await tx.query(
    "create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())",
  );
  const done = new Set(
    (await tx.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name),
  );
  const applied: SqlFile[] = [];
  for (const file of files) {
    if (done.has(file.name)) continue;
    for (const statement of splitStatements(file.text)) await tx.query(statement);
    await tx.query("insert into schema_migrations (name) values ($1)", [file.name]);
    applied.push(file);
  }
  return applied;
}
