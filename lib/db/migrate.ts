import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "./db";

/**
 * Applies every migration in `dir` not yet recorded, in file-name order, all in one transaction.
 * On PostgreSQL an advisory lock (`lockKey`) keeps two starting instances from racing.
 */
export async function runMigrations(db: Db, dir: string, lockKey: number): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return db.transaction(async (tx) => {
    if (db.kind === "postgres") await tx.query("select pg_advisory_xact_lock($1)", [lockKey]);
    await tx.query(
      "create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())",
    );
    const done = new Set(
      (await tx.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      // Statements end with ";" at line end, outside dollar-quoted bodies ($$ … $$, $tag$ … $tag$).
      for (const statement of splitStatements(readFileSync(join(dir, file), "utf8")))
        await tx.query(statement);
      await tx.query("insert into schema_migrations (name) values ($1)", [file]);
      applied.push(file);
    }
    return applied;
  });
}

/**
 * Splits a migration into statements: a ";" at the end of a line ends one, except inside a
 * dollar-quoted body (plpgsql functions, `do` blocks), whose own ";" belong to the body.
 * Whole-line "--" comments are dropped.
 */
export function splitStatements(sql: string): string[] {
  const text = sql
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n");
  const statements: string[] = [];
  const token = /\$([A-Za-z_][A-Za-z0-9_]*)?\$|;[ \t\r]*(?=\n|$)/g;
  let start = 0;
  let tag: string | null = null;
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    if (m[0].startsWith("$")) {
      if (tag === null) tag = m[0];
      else if (m[0] === tag) tag = null;
    } else if (tag === null) {
      statements.push(text.slice(start, m.index));
      start = m.index + m[0].length;
    }
  }
  statements.push(text.slice(start));
  return statements.map((s) => s.trim()).filter(Boolean);
}
