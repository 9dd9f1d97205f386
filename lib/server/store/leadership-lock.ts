import "server-only";
import pg from "pg";

/** A session-level advisory lock held on its own connection. */
export interface HeldLock {
  /** Resolves when the lock's connection ends or fails (the lock is then free for others). */
  readonly lost: Promise<void>;
  /** Unlocks and closes the connection (idempotent). */
  release(): Promise<void>;
}

/**
 * Tries `pg_try_advisory_lock(key)` on a dedicated connection (outside the pool, held for as long
 * as the lock is): if the process dies, its session ends and the lock is free. Null: another
 * session holds it.
 */
export async function tryAdvisoryLock(databaseUrl: string, key: number): Promise<HeldLock | null> {
  const conn = new pg.Client({ connectionString: databaseUrl });
  let resolveLost = () => {};
  const lost = new Promise<void>((resolve) => {
    resolveLost = resolve;
  });
  conn.on("error", () => resolveLost());
  conn.on("end", () => resolveLost());
  await conn.connect();
  try {
    const { rows } = await conn.query<{ ok: boolean }>("select pg_try_advisory_lock($1) as ok", [key]);
    if (!rows[0]?.ok) {
      await conn.end();
      return null;
    }
  } catch (err) {
    await conn.end().catch(() => undefined);
    throw err;
  }
  let released = false;
  return {
    lost,
    release: async () => {
      if (released) return;
      released = true;
      await conn.query("select pg_advisory_unlock($1)", [key]).catch(() => undefined);
      await conn.end().catch(() => undefined);
    },
  };
}
