import "server-only";
import type { Db } from "@/lib/db/db";
import { tryAdvisoryLock } from "@/lib/server/store/leadership-lock";
import { defaultSleep, type Sleep } from "@/lib/server/upstream/client";
import type { SyncLogger } from "./context";

/** Advisory-lock key of the sync leadership (distinct from the migration lock 3000001). */
export const SYNC_LOCK_KEY = 3000002;

export interface SyncLeadership {
  readonly leader: boolean;
  /** Resolves when a held leadership is lost (its connection ended); never for PGlite. */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

const never = new Promise<void>(() => {});
const notLeader: SyncLeadership = { leader: false, lost: never, release: async () => {} };

/**
 * Only one process may run the sync worker per store. PGlite is single-process: always the leader.
 * On PostgreSQL, a session-level advisory lock on a dedicated connection (see tryAdvisoryLock): if the
 * process dies, its session ends and the lock is free.
 */
export async function acquireSyncLeadership(
  db: Db,
  options: { databaseUrl?: string; lockKey?: number } = {},
): Promise<SyncLeadership> {
  if (db.kind === "pglite") return { leader: true, lost: never, release: async () => {} };
  if (!options.databaseUrl)
    throw new Error("acquireSyncLeadership: a PostgreSQL store needs its databaseUrl.");
  const held = await tryAdvisoryLock(options.databaseUrl, options.lockKey ?? SYNC_LOCK_KEY);
  return held ? { leader: true, lost: held.lost, release: held.release } : notLeader;
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
  let waitingSaid = false;
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
        waitingSaid = false;
        options.log.info("[sync] this instance runs the sync worker");
        options.worker.start();
        await Promise.race([current.lost, stopped]);
        await options.worker.stop();
        await current.release();
        leader = false;
        if (!controller.signal.aborted) options.log.warn("[sync] sync leadership lost; retrying");
      } else {
        await current?.release();
        if (current && !waitingSaid && !controller.signal.aborted) {
          waitingSaid = true;
          options.log.info("[sync] another instance runs the sync worker; this one takes over if it stops");
        }
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
