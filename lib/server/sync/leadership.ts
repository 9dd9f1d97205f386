import "server-only";
import pg from "pg";
import type { Db } from "@/lib/db/db";
import { defaultSleep, type Sleep } from "@/lib/server/upstream/client";
import type { SyncLogger } from "./sync-worker";

/** Advisory-lock key of the sync leadership (distinct from the migration lock 3000001). */
export const SYNC_LOCK_KEY = 3000002;

export interface SyncLeadership {
  readonly leader: boolean;
  /** Resolves when a held leadership is lost (its connection ended); never for PGlite. */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

const never = new Promise<void>(() => {});

/**
 * Only one process may run the sync worker per store. PGlite is single-process: always the leader.
 * On PostgreSQL, a session-level `pg_try_advisory_lock` on a dedicated connection (outside the pool,
 * held for as long as the leadership is): if the process dies, its session ends and the lock is free.
 */
export async function acquireSyncLeadership(
  db: Db,
  options: { databaseUrl?: string; lockKey?: number } = {},
): Promise<SyncLeadership> {
  if (db.kind === "pglite") return { leader: true, lost: never, release: async () => {} };
  if (!options.databaseUrl)
    throw new Error("acquireSyncLeadership: a PostgreSQL store needs its databaseUrl.");
  const key = options.lockKey ?? SYNC_LOCK_KEY;
  const conn = new pg.Client({ connectionString: options.databaseUrl });
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
      return { leader: false, lost: never, release: async () => {} };
    }
  } catch (err) {
    await conn.end().catch(() => undefined);
    throw err;
  }
  let released = false;
  return {
    leader: true,
    lost,
    release: async () => {
      if (released) return;
      released = true;
      await conn.query("select pg_advisory_unlock($1)", [key]).catch(() => undefined);
      await conn.end().catch(() => undefined);
    },
  };
}

/**
 * Keeps trying to become the sync leader (every `retryMs`); runs the worker while leader, stops it
 * when the leadership is lost, and tries again. `stop()` stops the worker and releases the lock.
 */
export function runSyncWhenLeader(options: {
  db: Db;
  databaseUrl?: string;
  worker: { start(): void; stop(): Promise<void> };
  log: SyncLogger;
  retryMs?: number;
  sleep?: Sleep;
}): { stop(): Promise<void>; isLeader(): boolean } {
  const controller = new AbortController();
  const sleep = options.sleep ?? defaultSleep;
  const retryMs = options.retryMs ?? 30_000;
  let leader = false;
  let current: SyncLeadership | null = null;
  const stopped = new Promise<void>((resolve) =>
    controller.signal.addEventListener("abort", () => resolve(), { once: true }),
  );

  const loop = (async () => {
    while (!controller.signal.aborted) {
      try {
        current = await acquireSyncLeadership(options.db, { databaseUrl: options.databaseUrl });
      } catch (err) {
        options.log.warn("[sync] could not try the sync leadership", err);
        current = null;
      }
      if (current?.leader && !controller.signal.aborted) {
        leader = true;
        options.log.info("[sync] this instance runs the sync worker");
        options.worker.start();
        await Promise.race([current.lost, stopped]);
        await options.worker.stop();
        await current.release();
        leader = false;
        if (!controller.signal.aborted) options.log.warn("[sync] sync leadership lost; retrying");
      } else {
        await current?.release();
      }
      await sleep(retryMs, controller.signal).catch(() => undefined);
    }
  })();

  return {
    isLeader: () => leader,
    stop: async () => {
      controller.abort();
      await loop;
    },
  };
}
