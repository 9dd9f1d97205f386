import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Checkin } from "@/lib/contract";
import type { Db, Queryable } from "@/lib/db/db";
import { insertEventDays, saleRecord, scanRecord } from "@/lib/testing/mirror-records";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { QUEUE_BATCH } from "../gates/evaluate";
import {
  batchScanDelays,
  deniedAround,
  lateWristbands,
  repeatedCheckIns,
  swipeCandidates,
  walkCandidates,
} from "./gates-batch-reads";
import { upsertSales, upsertScans } from "./mirror";

/**
 * The rule step's reads of a batch on a real store (PGlite; DATABASE_URL: a throwaway PostgreSQL
 * schema): exactly the records that can take part in a case come back, and each read stays a lookup
 * by index per key at the size of a festival's mirror.
 */

const T0 = Date.parse("2026-07-11T21:00:00.000Z");
const at = (s: number) => new Date(T0 + s * 1000);

function scan(p: {
  id: string;
  s: number;
  zone?: string;
  device?: string | null;
  wristband?: string;
  arrived?: number;
  kind?: "check_in" | "access_check";
  ticket?: string;
  allowed?: boolean;
}): Checkin {
  return {
    ...scanRecord({ device: "gate-01", day: "day_2", occurred: at(p.s), created: at(p.arrived ?? p.s) }),
    id: p.id,
    kind: p.kind ?? "access_check",
    allowed: p.allowed ?? true,
    reason: p.allowed === false ? "unknown_code" : null,
    device_id: p.device === undefined ? "gate-01" : p.device,
    wristband_id: p.wristband ?? "wb_1",
    ticket_code: p.ticket ?? null,
    zone: { id: p.zone ?? "z_gen", name: "" },
  } as Checkin;
}

const sale = (
  id: string,
  s: number,
  p: { device?: string; wristband?: string; total?: number; arrived?: number } = {},
) => ({
  ...saleRecord({
    id,
    device: p.device ?? "bar-1",
    day: "day_2",
    occurred: at(s),
    created: at(p.arrived ?? s),
    total: p.total,
  }),
  wristband_id: p.wristband ?? "wb_1",
});

const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort();

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, [
    { id: "day_2", starts_at: "2026-07-11T10:00:00.000Z", ends_at: "2026-07-12T04:00:00.000Z" },
  ]);
});
afterAll(async () => {
  await db?.close();
});

describe("the records a batch can take part in a case with", () => {
  it("walks: partners at another zone by another device (or none) within the span; not the same device or zone", async () => {
    await upsertScans(db, [
      scan({ id: "w_a", s: 0, wristband: "wb_w" }),
      scan({ id: "w_vip", s: 40, wristband: "wb_w", zone: "z_vip", device: "gate-02" }),
      scan({ id: "w_hand", s: 50, wristband: "wb_w", zone: "z_camp", device: null }),
      scan({ id: "w_same_dev", s: 20, wristband: "wb_w", zone: "z_bar" }), // gate-01 moved between doors
      scan({ id: "w_same_zone", s: 10, wristband: "wb_w", device: "gate-03" }),
      scan({ id: "w_far", s: 900, wristband: "wb_w", zone: "z_vip", device: "gate-02" }),
      scan({ id: "w_denied", s: 30, wristband: "wb_w", zone: "z_vip", device: "gate-02", allowed: false }),
      scan({ id: "alone", s: 0, wristband: "wb_alone" }),
    ]);
    const got = await walkCandidates(db, ["w_a", "alone"], 300_000);
    expect(ids(got.fresh)).toEqual(["w_a"]);
    expect(ids(got.neighbours)).toEqual(["w_hand", "w_vip"]);
    // Two fresh partners: each is fresh and each other's neighbour.
    const both = await walkCandidates(db, ["w_a", "w_vip"], 300_000);
    expect(ids(both.fresh)).toEqual(["w_a", "w_vip"]);
    // w_vip's own partners come too: gate-01 at the bar, and gate-03 at the general zone.
    expect(ids(both.neighbours)).toEqual(["w_a", "w_hand", "w_same_dev", "w_same_zone", "w_vip"]);
    expect(await walkCandidates(db, ["alone", "w_denied"], 300_000)).toEqual({ fresh: [], neighbours: [] });
  });

  it("double swipes: another charge of the band at the terminal, same amount, within the window", async () => {
    await upsertSales(db, [
      sale("s_1", 0, { wristband: "wb_s", total: 900 }),
      sale("s_2", 4, { wristband: "wb_s", total: 900 }),
      sale("s_other_amount", 5, { wristband: "wb_s", total: 400 }),
      sale("s_other_bar", 6, { wristband: "wb_s", total: 900, device: "bar-2" }),
      sale("s_later", 60, { wristband: "wb_s", total: 900 }),
      sale("s_alone", 0, { wristband: "wb_t", total: 900 }),
    ]);
    const got = await swipeCandidates(db, ["s_2", "s_alone", "s_other_amount"], 10_000);
    expect(ids(got.fresh)).toEqual(["s_2"]);
    expect(ids(got.neighbours)).toEqual(["s_1"]);
  });

  it("offline sales: the bands of the batch's sales that arrived later than the late threshold", async () => {
    await upsertSales(db, [
      sale("l_late", 0, { wristband: "wb_late", arrived: 301 }),
      sale("l_edge", 0, { wristband: "wb_edge", arrived: 300 }),
    ]);
    expect(await lateWristbands(db, ["l_late", "l_edge", "s_1"], 300_000)).toEqual(["wb_late"]);
  });

  it("check-ins: every allowed check-in of the batch's tickets checked in more than once", async () => {
    await upsertScans(db, [
      scan({ id: "c_1", s: 0, kind: "check_in", ticket: "TCK-2X", wristband: "wb_c1" }),
      scan({ id: "c_2", s: 600, kind: "check_in", ticket: "TCK-2X", wristband: "wb_c2" }),
      scan({ id: "c_once", s: 0, kind: "check_in", ticket: "TCK-1X", wristband: "wb_c3" }),
      scan({ id: "c_no", s: 700, kind: "check_in", ticket: "TCK-1X", wristband: "wb_c3", allowed: false }),
    ]);
    expect(ids(await repeatedCheckIns(db, ["c_2", "c_once", "c_no"]))).toEqual(["c_1", "c_2"]);
  });

  it("device clocks: the smallest arrival delay per device and day among the batch", async () => {
    await upsertScans(db, [
      scan({ id: "k_1", s: 0, device: "gate-k", arrived: 95, wristband: "wb_k" }),
      scan({ id: "k_2", s: 10, device: "gate-k", arrived: 100, wristband: "wb_k" }),
      scan({ id: "k_ahead", s: 30, device: "gate-j", arrived: 28, wristband: "wb_k" }),
    ]);
    expect(await batchScanDelays(db, ["k_1", "k_2", "k_ahead"])).toEqual(
      new Map([
        ["gate-k|day_2", 90_000],
        ["gate-j|day_2", -2_000],
      ]),
    );
  });
});

/** Runs a read once through a spy and answers the plan of each statement it ran. */
async function plansOf(run: (q: Queryable) => Promise<unknown>): Promise<string> {
  const statements: { sql: string; params?: unknown[] }[] = [];
  await run({
    query: (sql, params) => {
      statements.push({ sql, params });
      return db.query(sql, params);
    },
  });
  const plans: string[] = [];
  for (const s of statements) {
    const rows = await db.query<Record<string, string>>(`explain ${s.sql}`, s.params);
    plans.push(rows.map((r) => Object.values(r)[0]).join("\n"));
  }
  return plans.join("\n");
}

describe("at a festival's size", () => {
  it("each neighbour read stays a lookup by index per key, even for a full batch of keys", async () => {
    // Only the tables matter to the planner: the bulk rows skip the mirror's triggers.
    await db.exec("alter table m_scans disable trigger user; alter table m_sales disable trigger user;");
    await db.query(
      `insert into m_scans (id, kind, allowed, reason, ticket_code, wristband_id, zone_id, device_id, day_id,
         occurred_at, created_at)
       select 'bulk_' || g, 'access_check', g % 20 <> 0, case when g % 20 = 0 then 'unknown_code' end, null,
         'wb_bulk_' || (g % 20000), (array['z_gen','z_vip','z_camp'])[1 + g % 3], 'gate_' || (g % 12), 'day_2',
         $1::timestamptz + (g % 64800) * interval '1 second', $1::timestamptz + (g % 64800) * interval '1 second'
       from generate_series(1, 200000) g`,
      [at(-36_000).toISOString()],
    );
    await db.query(
      `insert into m_sales (id, status, type, payment_method, total, total_base, total_tax, tax_breakdown, items,
         wristband_id, day_id, device_id, occurred_at, created_at)
       select 'bulk_' || g, 'completed', 'cart', 'wristband', 500, 413, 87, '[]'::jsonb, '[]'::jsonb,
         'wb_bulk_' || (g % 20000), 'day_2', 'bar_' || (g % 40),
         $1::timestamptz + (g % 64800) * interval '1 second', $1::timestamptz + (g % 64800) * interval '1 second'
       from generate_series(1, 200000) g`,
      [at(-36_000).toISOString()],
    );
    await db.exec("alter table m_scans enable trigger user; alter table m_sales enable trigger user;");
    await db.query("analyze m_scans");
    await db.query("analyze m_sales");
    const batch = Array.from({ length: QUEUE_BATCH }, (_, i) => `bulk_${190_000 + i}`);
    const plans = await plansOf(async (q) => {
      await walkCandidates(q, batch, 300_000);
      await swipeCandidates(q, batch, 10_000);
      await repeatedCheckIns(q, batch);
      await deniedAround(
        q,
        batch.map((_, i) => ({ device: `gate_${i % 12}`, reason: "unknown_code", at: at(i).toISOString() })),
        360_000,
      );
    });
    expect(plans).toMatch(/Index Scan (using|on) m_scans_holder/);
    // The lookups read their table as `m`; the batch's own rows may be one pass over the table (PostgreSQL
    // hashes a long id list), the neighbours never.
    expect(plans).not.toMatch(/Seq Scan on m_(scans|sales) m\b/);
  }, 120_000);
});
