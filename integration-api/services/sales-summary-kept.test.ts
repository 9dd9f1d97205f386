import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../../lib/db/migrate";
import { openTestDb, testDatabaseUrls } from "../../lib/testing/test-db";
import { DEMO_PRODUCTS } from "../seed/demo-catalog";
import { seedDemo } from "../seed/demo-seed";
import { TerminalSimulator } from "../simulator/terminal-simulator";
import type { Db } from "../store/db";
import { API_STORE, migrate } from "../store/migrate";
import { salesSummaryRows } from "../store/reports-store";
import { UNRESTRICTED, type Visibility } from "../store/sql";
import { scanSummaryRows } from "../testing/summary-scan";
import { createTestApi, type TestApi } from "../testing/test-api";
import type { SaleLine } from "./write-service";

/**
 * The summary kept by the writes (store/functions/, its tables in store/migrations/002_summary.sql) equals a full scan of the
 * records after the terminal simulator has run on a seeded store — offline terminals syncing late
 * sales and check-ins, refused sales — and after what moves records between scopes or out of the
 * summary: pending-review pairs resolved (transfers), an anonymous wristband with sales linked to a
 * ticket at check-in, a ticket whose type changes, sales and top-ups changing status, returns.
 * For every day and the whole event, with and without key restrictions.
 */

const STEPS = Number(process.env.SUMMARY_TEST_STEPS ?? 4000);
const STEP_MS = 50;

let api: TestApi;
let db: Db;
let scopes: { name: string; v: Visibility }[];
let dayIds: string[];
const done = {
  concurrent: 0,
  reviews: 0,
  relinkedSales: 0,
  retypedSales: 0,
  cancelled: 0,
  completedLate: 0,
  returns: 0,
};

const count = async (sql: string, params: unknown[] = []) =>
  (await db.query<{ n: number }>(sql, params))[0].n;

/** Resolves every pending-review pair through the service, keeping the first wristband. */
async function resolveReviews() {
  const pending = await db.query<{ nfc: string }>(
    `select distinct on (ticket_id) nfc from wristbands where status = 'pending_review' order by ticket_id, id`,
  );
  for (const { nfc } of pending) {
    await db.transaction((tx) => api.services.writes.review(tx, UNRESTRICTED, nfc));
    done.reviews++;
  }
}

/** Checks a ticket in with an anonymous wristband that already paid: its records join the ticket's scope. */
async function linkAnonymousWristband() {
  const [w] = await db.query<{ id: string; nfc: string }>(
    `select w.id, w.nfc from wristbands w where w.ticket_id is null and w.status = 'active'
       and exists (select 1 from sales s where s.wristband_id = w.id and s.status = 'completed')
     order by w.id limit 1`,
  );
  const { ticketTypes, days } = api.services.catalog.rows;
  await db.transaction(async (tx) => {
    const created = await api.services.writes.createTickets(tx, UNRESTRICTED, [
      {
        ticket_type_id: ticketTypes[0].id,
        attendee: { name: "Ana Late", email: "ana.late@example.com" },
        valid_days: days.map((d) => d.id),
      },
    ]);
    await api.services.writes.checkIn(tx, UNRESTRICTED, created.data[0].code, { wristband: { nfc: w.nfc } });
  });
  done.relinkedSales = await count(
    "select count(*)::int as n from sales where wristband_id = $1 and status = 'completed'",
    [w.id],
  );
}

/** A ticket changes type (no endpoint does it today; the kept rows must follow all the same). */
async function retypeTicket() {
  const [t] = await db.query<{ id: string; ticket_type_id: string }>(
    `select t.id, t.ticket_type_id from tickets t join wristbands w on w.ticket_id = t.id
     where exists (select 1 from sales s where s.wristband_id = w.id and s.status = 'completed')
     order by t.id limit 1`,
  );
  const other = api.services.catalog.rows.ticketTypes.find((x) => x.id !== t.ticket_type_id)!;
  await db.query("update tickets set ticket_type_id = $2 where id = $1", [t.id, other.id]);
  done.retypedSales = await count(
    `select count(*)::int as n from sales s join wristbands w on w.id = s.wristband_id
     where w.ticket_id = $1 and s.status = 'completed'`,
    [t.id],
  );
}

/** Status changes (cancelled after completion, pending completed) and returns of earlier sales. */
async function changeStatuses() {
  done.cancelled = (
    await db.query(
      `update sales set status = 'cancelled' where id in
         (select id from sales where status = 'completed' order by id desc limit 25) returning id`,
    )
  ).length;
  done.completedLate = (
    await db.query(`update sales set status = 'completed' where status = 'pending' returning id`)
  ).length;
  await db.query(`update topups set status = 'completed' where status = 'pending'`);
  await db.query(
    `update topups set status = 'failed' where id in
       (select id from topups where status = 'completed' and nature = 'paid' order by id desc limit 10)`,
  );
  const negate = (column: string, fields: string[]) =>
    `(select jsonb_agg(e || jsonb_build_object(${fields.map((f) => `'${f}', -(e->>'${f}')::int`).join(", ")}))
      from jsonb_array_elements(s.${column}) e)`;
  done.returns = (
    await db.query(
      `insert into sales (id, status, type, payment_method, total, total_base, total_tax, tax_breakdown, items,
         wristband_id, day_id, device_id, occurred_at, created_at)
       select 'ffff' || substr(s.id, 5), 'completed', 'return', s.payment_method, -s.total, -s.total_base,
         -s.total_tax, coalesce(${negate("tax_breakdown", ["base", "amount"])}, '[]'::jsonb),
         coalesce(${negate("items", ["quantity", "charged_amount"])}, '[]'::jsonb), s.wristband_id, s.day_id, s.device_id,
         s.occurred_at, now()
       from sales s where s.status = 'completed' and s.type = 'cart' order by s.id limit 15
       returning id`,
    )
  ).length;
}

/**
 * Sales and top-ups on many wristbands at once (on PostgreSQL, ten transactions at a time on the
 * pool): writes that touch the same kept rows wait for each other and none fails (no deadlock).
 */
async function concurrentWrites() {
  const wristbands = await db.query<{ id: string; nfc: string }>(
    "select id, nfc from wristbands where status = 'active' order by id limit 60",
  );
  const line = (i: number): SaleLine[] =>
    [DEMO_PRODUCTS[i % 5], DEMO_PRODUCTS[(i * 7 + 3) % DEMO_PRODUCTS.length]].map((p, k) => ({
      product_id: p.id,
      name: p.name,
      quantity: 1 + k,
      unit_price: p.unitPrice,
      included_quantity: 0,
      tax_type: p.taxType,
      rate: p.taxRate,
    }));
  const origin = () => ({ occurredAt: new Date(), createdAt: new Date(), deviceId: "bar-01" });
  const results = await Promise.allSettled(
    Array.from({ length: 240 }, (_, i) => {
      const w = wristbands[i % wristbands.length];
      return db.transaction<unknown>((tx) =>
        i % 3 === 0
          ? api.services.writes.createTopup(
              tx,
              UNRESTRICTED,
              { code: w.nfc, amount: 500 + (i % 14) * 100, payment_method: i % 2 ? "card" : "cash" },
              origin(),
            )
          : api.services.writes.recordSale(
              tx,
              { wristbandId: w.id, lines: line(i), paymentMethod: "wristband", online: false },
              origin(),
            ),
      );
    }),
  );
  const failed = results.filter((r) => r.status === "rejected");
  expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
  done.concurrent = results.length;
}

beforeAll(async () => {
  const start = new Date();
  api = await createTestApi({ scale: 0.03, now: start });
  db = api.db;
  const catalog = api.services.catalog;
  dayIds = catalog.rows.days.map((d) => d.id);
  const typeIds = catalog.rows.ticketTypes.map((t) => t.id);
  scopes = [
    { name: "unrestricted", v: UNRESTRICTED },
    { name: "two ticket types", v: { ticketTypeIds: typeIds.slice(0, 2), dayIds: null } },
    { name: "two days", v: { ticketTypeIds: null, dayIds: [dayIds[0], dayIds[2]] } },
    { name: "types and days", v: { ticketTypeIds: typeIds.slice(1, 4), dayIds: [dayIds[1], dayIds[2]] } },
  ];
  let t = start.getTime();
  const sim = new TerminalSimulator(api.services, {
    rate: 1000 / STEP_MS,
    seed: 20261123,
    clock: () => new Date(t),
    offlineChance: 0.002,
    maxOfflineMinutes: 2,
  });
  for (let i = 0; i < STEPS; i++) {
    await sim.step();
    t += STEP_MS;
  }
  expect(sim.stats.offlineSales).toBeGreaterThan(0);
  await concurrentWrites();
  await resolveReviews();
  await linkAnonymousWristband();
  await retypeTicket();
  await changeStatuses();
}, 600_000);

afterAll(async () => {
  await api?.close();
});

describe("the kept sales summary after the terminal simulator", () => {
  it("went through every change that moves a record in or out of the summary", () => {
    expect(done.concurrent).toBe(240);
    expect(done.reviews).toBeGreaterThan(0);
    expect(done.relinkedSales).toBeGreaterThan(0);
    expect(done.retypedSales).toBeGreaterThan(0);
    expect(done.cancelled).toBe(25);
    expect(done.completedLate).toBeGreaterThan(0);
    expect(done.returns).toBe(15);
  });

  it("equals a full scan of the records for every day and the whole event, for every key scope", async () => {
    for (const { name, v } of scopes) {
      for (const day of [null, ...dayIds]) {
        const kept = await salesSummaryRows(db, v, day);
        const scanned = await scanSummaryRows(db, v, day);
        expect(kept, `${name}, day ${day ?? "all"}`).toEqual(scanned);
        // Byte for byte, key order included: the response is built from these rows as they are.
        expect(JSON.stringify(kept)).toBe(JSON.stringify(scanned));
      }
    }
    const whole = await salesSummaryRows(db, UNRESTRICTED, null);
    expect(whole.sales.count).toBe(
      await count("select count(*)::int as n from sales where status = 'completed'"),
    );
  });

  it("holds exactly the rows a recompute from the records gives", async () => {
    const tables = ["summary_sales", "summary_payment", "summary_tax", "summary_product", "summary_flows"];
    const dump = async () => {
      const parts: unknown[] = [];
      for (const table of tables)
        parts.push(await db.query(`select * from ${table} order by 1, 2, 3, 4, 5, 6`));
      return parts;
    };
    const kept = await dump();
    expect(kept[0]).not.toHaveLength(0);
    await db.transaction(async (tx) => {
      await tx.query("select summary_recompute()");
    });
    expect(await dump()).toEqual(kept);
  });
});

describe("the kept summary on a store seeded before it existed", () => {
  it("is back-filled from the records already there by its files' declared rebuild", async () => {
    const onlyFirst = mkdtempSync(join(tmpdir(), "api-migrations-"));
    const store = await openTestDb(testDatabaseUrls.api);
    try {
      // The store as the service left it before the summary: migration 001, no function files.
      copyFileSync(join(API_STORE.migrations, "001_init.sql"), join(onlyFirst, "001_init.sql"));
      await runMigrations(store, { migrations: onlyFirst, lockKey: API_STORE.lockKey });
      await seedDemo(store, { scale: 0.02, random: 11, now: new Date("2026-07-11T20:30:00.000Z") });
      expect(await migrate(store)).toEqual({
        migrations: ["002_summary.sql", "003_codes_any_case.sql"],
        rebuilds: ["select summary_recompute()"],
      });
      const days = (await store.query<{ id: string }>("select id from days order by id")).map((d) => d.id);
      const types = (await store.query<{ id: string }>("select id from ticket_types order by id")).map(
        (t) => t.id,
      );
      const restricted: Visibility = { ticketTypeIds: types.slice(0, 3), dayIds: days.slice(1) };
      for (const v of [UNRESTRICTED, restricted]) {
        for (const day of [null, ...days]) {
          expect(await salesSummaryRows(store, v, day)).toEqual(await scanSummaryRows(store, v, day));
        }
      }
      expect((await salesSummaryRows(store, UNRESTRICTED, null)).sales.count).toBeGreaterThan(500);
    } finally {
      await store.close();
      rmSync(onlyFirst, { recursive: true, force: true });
    }
  });
});
