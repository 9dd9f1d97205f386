import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { runMigrations } from "@/lib/db/migrate";
import { LEGACY_COMMIT, migrateAsAt } from "@/lib/testing/store-definitions";
import { openTestDb, testDatabaseUrls } from "@/lib/testing/test-db";
import { DASHBOARD_STORE } from ".";

/**
 * Migration 017 on a store that already holds history: sign-offs signed again (chained to the one
 * each replaced), a terminal waived three times (the first stands, the others kept aside), an
 * acknowledged alert (carried over). Nothing is lost, and the constraints hold afterwards.
 */

let db: Db;

beforeAll(async () => {
  db = await openTestDb(testDatabaseUrls.dashboard);
  // The store as the code before 017 left it (its migrations, with their functions and triggers).
  await migrateAsAt(db, LEGACY_COMMIT, "lib/server/store/migrations", DASHBOARD_STORE.lockKey);
  for (const [day, comment] of [
    ["day_1", "first"],
    ["day_2", "other night"],
    ["day_1", "again"],
    ["day_1", "third"],
  ])
    await db.query(
      `insert into recon_signoffs (day_id, user_id, username, comment, counted, snapshot) values ($1, 'u', 'ana', $2, '[]', '{}')`,
      [day, comment],
    );
  for (const reason of ["broken", "still broken", "really"])
    await db.query(
      `insert into recon_waivers (day_id, device_id, waived_at, user_id, username, reason) values ('day_1', 'bar-3', now(), 'u', 'ana', $1)`,
      [reason],
    );
  await db.query(
    `insert into alerts (kind, subject, severity, state, first_seen, last_seen, figures, link, acknowledged_by, acknowledged_at, ack_comment)
     values ('terminal_quiet', 'bar-3', 'warning', 'open', now(), now(), '{}', '/t', 'ana', now(), 'on it')`,
  );
  await runMigrations(db, DASHBOARD_STORE);
});
afterAll(async () => {
  await db?.close();
});

describe("migration 017 on existing history", () => {
  it("chains each night's sign-offs, each to the one it replaced", async () => {
    const rows = await db.query<{ comment: string; previous: string | null }>(
      `select s.comment, p.comment as previous from recon_signoffs s left join recon_signoffs p on p.id = s.supersedes
       order by s.id`,
    );
    expect(rows).toEqual([
      { comment: "first", previous: null },
      { comment: "other night", previous: null },
      { comment: "again", previous: "first" },
      { comment: "third", previous: "again" },
    ]);
    await expect(db.query("update recon_signoffs set comment = 'x'")).rejects.toThrow(/immutable/);
  });

  it("keeps the first waiver of a terminal and night, and the later ones aside", async () => {
    expect(await db.query("select reason from recon_waivers")).toEqual([{ reason: "broken" }]);
    expect(await db.query("select reason from recon_waivers_superseded order by id")).toEqual([
      { reason: "still broken" },
      { reason: "really" },
    ]);
  });

  it("carries acknowledgements over: a second one is refused by the store", async () => {
    expect(await db.query("select username, comment from alert_acknowledgements")).toEqual([
      { username: "ana", comment: "on it" },
    ]);
    await expect(
      db.query(
        "insert into alert_acknowledgements (alert_id, acknowledged_at, username) select id, now(), 'bo' from alerts",
      ),
    ).rejects.toThrow(/duplicate key|unique/);
  });
});
