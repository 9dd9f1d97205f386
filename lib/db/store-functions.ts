import { createHash } from "node:crypto";
import type { Queryable } from "./db";
import { type SqlFile, splitStatements } from "./sql-files";

/**
 * The function files of a store, applied at every start inside the migrations' transaction:
 *
 * 1. every file's statements (`create or replace function`, `create or replace trigger`), in
 *    file-name order;
 * 2. every function and trigger of the store's schema that this transaction did not just (re)create
 *    is dropped: a deleted file, a renamed function, an old signature, a trigger no file declares
 *    any more. Functions of extensions are left alone; a function something else still depends on
 *    (a column default, an index) stops the start with PostgreSQL's error instead of being dropped;
 * 3. each file's SHA-256 is compared with the one recorded at the last start (schema_functions):
 *    the changed files are answered, so that their declared rebuilds run (migrate.ts). A fresh
 *    store's files are all new; an existing store's files all changed on its first start after
 *    the functions left the migrations.
 *
 * One store per schema: step 2 would drop another store's functions sharing it.
 */
export async function applyStoreFunctions(tx: Queryable, files: SqlFile[]): Promise<SqlFile[]> {
  for (const file of files) for (const statement of splitStatements(file.text)) await tx.query(statement);
  await dropUndeclared(tx);
  return recordChanges(tx, files);
}

/** pg_catalog rows whose xmin is this transaction were written (created or replaced) by it. */
const NOT_WRITTEN_NOW = "xmin <> pg_current_xact_id()::xid";

async function dropUndeclared(tx: Queryable): Promise<void> {
  // Triggers first: a function to drop may be what a trigger to drop calls.
  const triggers = await tx.query<{ statement: string }>(
    `select format('drop trigger %I on %I', t.tgname, c.relname) as statement
     from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal and t.${NOT_WRITTEN_NOW}
       and not exists (select 1 from pg_depend d
         where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')`,
  );
  for (const { statement } of triggers) await tx.query(statement);
  const routines = await tx.query<{ statement: string }>(
    `select format('drop routine %s', p.oid::regprocedure) as statement
     from pg_proc p
     where p.pronamespace = current_schema()::regnamespace and p.prokind in ('f', 'p') and p.${NOT_WRITTEN_NOW}
       and not exists (select 1 from pg_depend d
         where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`,
  );
  for (const { statement } of routines) await tx.query(statement);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

async function recordChanges(tx: Queryable, files: SqlFile[]): Promise<SqlFile[]> {
  await tx.query(
    `create table if not exists schema_functions (
       file text primary key, sha256 text not null, applied_at timestamptz not null default now())`,
  );
  const known = new Map(
    (await tx.query<{ file: string; sha256: string }>("select file, sha256 from schema_functions")).map(
      (r) => [r.file, r.sha256],
    ),
  );
  const changed = files.filter((f) => known.get(f.name) !== sha256(f.text));
  for (const file of changed)
    await tx.query(
      `insert into schema_functions (file, sha256) values ($1, $2)
       on conflict (file) do update set sha256 = excluded.sha256, applied_at = now()`,
      [file.name, sha256(file.text)],
    );
  await tx.query("delete from schema_functions where not (file = any($1::text[]))", [
    files.map((f) => f.name),
  ]);
  return changed;
}
