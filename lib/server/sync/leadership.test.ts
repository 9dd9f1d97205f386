import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "@/lib/db/db";
import { openTestDb, testDatabaseUrls } from "@/lib/testing/test-db";
import { defaultSleep } from "../upstream/client";
import { acquireSyncLeadership, runSyncWhenLeader } from "./leadership";

/**
 * On PGlite every instance leads (one process per store). The PostgreSQL cases run when
 * DATABASE_URL points at PostgreSQL (the CI's PostgreSQL pass; advisory locks are per database).
 */

const url = testDatabaseUrls.dashboard;
const quiet = { info() {}, warn() {}, error() {} };
/** Waits for `check` (a generous limit: the machine may be busy), then expects it. */
const until = async (check: () => boolean, ms = 180_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe("sync leadership on PGlite", () => {
  it("is always the leader, and runSyncWhenLeader starts the worker at once", async () => {
    const db = await openDb({});
    try {
      const leadership = await acquireSyncLeadership(db);
      expect(leadership.leader).toBe(true);
      await leadership.release();
      let started = 0;
      let stopped = 0;
      const runner = runSyncWhenLeader({
        db,
        worker: { start: () => void started++, stop: async () => void stopped++ },
        log: quiet,
      });
      await until(() => runner.isLeader());
      expect(started).toBe(1);
      await runner.stop();
      expect(stopped).toBe(1);
      expect(runner.isLeader()).toBe(false);
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!url)("sync leadership on PostgreSQL", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb(url);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("lets exactly one session lead; the lock is free again after release", async () => {
    const first = await acquireSyncLeadership(db, { databaseUrl: url });
    const second = await acquireSyncLeadership(db, { databaseUrl: url });
    expect([first.leader, second.leader]).toEqual([true, false]);
    await first.release();
    const third = await acquireSyncLeadership(db, { databaseUrl: url });
    expect(third.leader).toBe(true);
    await third.release();
  });

  it("reports a lost leadership when its connection dies, and the lock frees", async () => {
    const leadership = await acquireSyncLeadership(db, { databaseUrl: url, lockKey: 4242 });
    expect(leadership.leader).toBe(true);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = 4242 and granted",
    );
    await admin.end();
    await leadership.lost;
    const next = await acquireSyncLeadership(db, { databaseUrl: url, lockKey: 4242 });
    expect(next.leader).toBe(true);
    await next.release();
    await leadership.release();
  });

  it("runSyncWhenLeader: a second instance takes over when the first stops", async () => {
    const log: string[] = [];
    const worker = (name: string) => ({
      start: () => void log.push(`${name} start`),
      stop: async () => void log.push(`${name} stop`),
    });
    const a = runSyncWhenLeader({ db, databaseUrl: url, worker: worker("a"), log: quiet, retryMs: 20 });
    await until(() => a.isLeader());
    // b's attempts, counted by its sleep between them: after two refused ones, it still waits.
    let attempts = 0;
    const said: string[] = [];
    const b = runSyncWhenLeader({
      db,
      databaseUrl: url,
      worker: worker("b"),
      log: { ...quiet, info: (m: string) => void said.push(m) },
      retryMs: 20,
      sleep: async (ms, signal) => {
        attempts++;
        await defaultSleep(ms, signal);
      },
    });
    await until(() => attempts >= 2);
    expect(b.isLeader()).toBe(false);
    expect(said).toEqual(["[sync] another instance runs the sync worker; this one takes over if it stops"]);
    await a.stop();
    await until(() => b.isLeader());
    await b.stop();
    expect(log).toEqual(["a start", "a stop", "b start", "b stop"]);
  });
});
