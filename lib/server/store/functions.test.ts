import type { Queryable } from "@/lib/db/db";
import { saleRecord, scanRecord, topupRecord } from "@/lib/testing/mirror-records";
import { describeStoreFunctions } from "@/lib/testing/store-definitions";
import { openTestDb, testDatabaseUrls } from "@/lib/testing/test-db";
import { DASHBOARD_STORE } from ".";
import { upsertSales, upsertScans, upsertTopups } from "./mirror";

/**
 * The dashboard store's functions and triggers are its function files (lib/server/store/functions),
 * on a fresh store and on one the code before them made (its functions defined by migrations),
 * which ends in exactly the state of a fresh one: same definitions, same rows in every table.
 * PGlite; DATABASE_URL runs it in throwaway PostgreSQL schemas.
 */

const DAYS = [
  { id: "day_1", start: "2026-07-10T10:00:00.000Z", end: "2026-07-11T04:00:00.000Z" },
  { id: "day_2", start: "2026-07-11T10:00:00.000Z", end: "2026-07-12T04:00:00.000Z" },
];

/** A small mirror that reaches every trigger: sales (late, returned, pending), top-ups, scans, tickets. */
async function writeMirror(db: Queryable) {
  await db.query(
    `insert into m_event (id, name, currency, time_zone, starts_at, ends_at, environment, synced_at)
     values ('evt_1', 'Fest', 'EUR', 'Europe/Madrid', $1, $2, 'test', $1)`,
    [DAYS[0]!.start, DAYS[1]!.end],
  );
  for (const [i, d] of DAYS.entries())
    await db.query("insert into m_days (id, name, date, starts_at, ends_at) values ($1, $2, $3, $4, $5)", [
      d.id,
      `Day ${i + 1}`,
      d.start.slice(0, 10),
      d.start,
      d.end,
    ]);
  await db.query(
    "insert into m_ticket_types (id, name, data) values ('tt_gen', 'General', '{}'), ('tt_vip', 'VIP', '{}')",
  );
  const ticket = (id: string, type: string, wristband: string | null, searchName: string) =>
    db.query(
      `insert into m_tickets (id, code, status, ticket_type_id, updated_at, data, search_name)
       values ($1, $1, 'used', $2, $3, $4::jsonb, $5)`,
      [id, type, DAYS[0]!.start, JSON.stringify({ wristband: wristband && { id: wristband } }), searchName],
    );
  await ticket("t1", "tt_gen", "wb_a", "ana maria lopez");
  await ticket("t2", "tt_vip", "wb_b", "zoe dubois");
  await ticket("t3", "tt_gen", null, "ana dubois");
  const at = (day: number, hour: number, minutes = 0) =>
    new Date(Date.parse(DAYS[day]!.start) + hour * 3_600_000 + minutes * 60_000);
  await upsertSales(db, [
    saleRecord({ id: "s1", device: "bar-1", day: "day_1", occurred: at(0, 2), total: 1250 }),
    saleRecord({ id: "s2", device: "bar-2", day: "day_1", occurred: at(0, 3), created: at(0, 3, 25) }),
    saleRecord({ id: "s3", device: "bar-1", day: "day_2", occurred: at(1, 5), type: "return", total: -500 }),
    { ...saleRecord({ id: "s4", device: "bar-2", day: "day_2", occurred: at(1, 6) }), status: "pending" },
  ]);
  await upsertTopups(db, [
    {
      ...topupRecord({ device: "desk-1", day: "day_1", occurred: at(0, 1) }),
      id: "p1",
      wristband_id: "wb_a",
    },
    {
      ...topupRecord({ device: "desk-1", day: "day_1", occurred: at(0, 2), amount: 5000 }),
      id: "p2",
      wristband_id: "wb_b",
      payment_method: "card",
    },
    {
      ...topupRecord({ device: "desk-2", day: "day_2", occurred: at(1, 1), amount: 500 }),
      id: "p3",
      wristband_id: "wb_b",
      nature: "bonus",
      payment_method: "promo",
    },
    {
      ...topupRecord({ device: "desk-2", day: "day_2", occurred: at(1, 9), direction: "withdraw" }),
      id: "p4",
      wristband_id: "wb_c",
    },
  ] as never);
  await upsertScans(db, [
    { ...scanRecord({ device: "gate-1", day: "day_1", occurred: at(0, 0, 30) }), id: "c1" },
    {
      ...scanRecord({ device: "gate-1", day: "day_2", occurred: at(1, 0, 30), created: at(1, 2) }),
      id: "c2",
    },
  ]);
  // A ticket names a second wristband only through a pending_review pair, which the review queue
  // lists (so a store made before m_wristband_tickets learns both links from it when upgraded).
  await db.query(
    `insert into m_review_wristbands (id, nfc, ticket_code, status, updated_at, data)
     values ('wb_b', 'NFC-B', 't2', 'pending_review', $1, '{}'), ('wb_c', 'NFC-C', 't2', 'pending_review', $1, '{}')`,
    [DAYS[0]!.start],
  );
  // Records that change after they were mirrored: a sale completes, a ticket names another wristband.
  await db.query("update m_sales set status = 'completed' where id = 's4'");
  await db.query(`update m_tickets set data = '{"wristband": {"id": "wb_c"}}'::jsonb where id = 't2'`);
}

describeStoreFunctions("dashboard", {
  layout: DASHBOARD_STORE,
  migrations: "lib/server/store/migrations",
  open: () => openTestDb(testDatabaseUrls.dashboard),
  fill: writeMirror,
  drift: [
    "update a_sales_hour set total = total + 1",
    "delete from a_device_minute",
    "update a_topups_ticket_type set amount = 0",
    "delete from m_ticket_words where word = 'dubois'",
  ],
  // The migrations' rebuilds first (016 re-derives the words, 019 the top-ups by ticket type, 023
  // the gates' entries),
  // then the changed files' (each once).
  rebuilds: [
    "select ticket_words_recompute()",
    "select live_recompute_topup_types()",
    "select gates_recompute()",
    "select live_recompute_aggregates()",
    "select attention_recompute()",
    "select now_recompute()",
  ],
  derived: [
    "a_sales_hour",
    "a_device_minute",
    "a_topups_ticket_type",
    "m_ticket_words",
    "a_now_sales_minute",
  ],
});
