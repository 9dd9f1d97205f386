import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A SQL file of a store's folder (a migration or a function file): its name and text. */
export interface SqlFile {
  name: string;
  text: string;
}

/** Every `.sql` file of `dir`, in file-name order. */
export function readSqlFiles(dir: string): SqlFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), "utf8") }));
}

const REBUILD_LINE = /^--[ \t]*rebuild:[ \t]*(.+?)[ \t]*$/gm;

/**
 * The rebuilds a file declares, one per `-- rebuild: <statement>` comment line: what recomputes the
 * data its function derives (or, in a migration, the data its change left to recompute).
 */
export function rebuildsOf(file: SqlFile): string[] {
  return [...file.text.matchAll(REBUILD_LINE)].map((m) => m[1]!.replace(/;$/, ""));
}

/**
 * Splits a SQL file into statements: a ";" at the end of a line ends one, except inside a
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
