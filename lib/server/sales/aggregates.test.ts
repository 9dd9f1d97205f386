import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Checkin, Topup, Transaction } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { deleteDayRecordsNotIn, upsertSales, upsertScans, upsertTopups } from "../store/mirror";

/**
 * The live aggregates (migration 003, triggers) must always equal a full recompute from the
 * mirror, whatever the sync worker does: inserts, re-sent records, status changes, day re-walks.
 */

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await db.query(
    `insert into m_event (id, name, currency, time_zone, starts_at, ends_at, environment, synced_at)
     values ('evt_1', 'Fest', 'EUR', 'Europe/Madrid', '2026-10-23T10:00:00Z', '2026-10-27T05:00:00Z', 'test', now())`,
  );
});
afterAll(async () => {
  await db.close();
});

// A small deterministic generator (mulberry32).
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const days = ["day_1", "day_2", "day_3"];
// Around the October 2026 DST change in Madrid (25 Oct, 03:00 CEST → 02:00 CET).
const base = Date.parse("2026-10-24T22:00:00Z");

function makeSale(r: () => number, id: string): Transaction {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const occurred = base + Math.floor(r() * 8 * 3600_000);
  const delay = r() < 0.2 ? 15 * 60_000 + Math.floor(r() * 3600_000) : Math.floor(r() * 60_000);
  const qty = 1 + Math.floor(r() * 3);
  const price = 100 + Math.floor(r() * 900);
  const total = qty * price;
  const tax = Math.round(total * 0.1);
  return {
    object: "transaction",
    id,
    status: pick(["completed", "completed", "completed", "pending", "cancelled"] as const),
    type: "cart",
    payment_method: pick(["wristband", "card", "cash"] as const),
    total,
    total_base: total - tax,
    total_tax: tax,
    tax_breakdown: [{ tax_type: "VAT", rate: pick([10, 21]), base: total - tax, amount: tax }],
    items: [
      {
        product_id: pick(["prd_beer", "prd_water", "prd_burger"]),
        name: "Product",
        quantity: qty,
        unit_price: price,
        charged_amount: total,
        included_quantity: 0,
      },
    ],
    wristband_id: "wb_1",
    day_id: pick(days),
    device_id: pick(["dev_a", "dev_b", null]),
    occurred_at: new Date(occurred).toISOString(),
    created_at: new Date(occurred + delay).toISOString(),
  };
}

function makeTopup(r: () => number, id: string): Topup {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const occurred = base + Math.floor(r() * 8 * 3600_000);
  return {
    object: "topup",
    id,
    direction: pick(["topup", "withdraw"] as const),
    amount: 500 + Math.floor(r() * 5000),
    previous_balance: 0,
    new_balance: 0,
    payment_method: pick(["card", "cash", "online", "promo"] as const),
    nature: pick(["paid", "bonus", "courtesy"] as const),
    status: pick(["completed", "completed", "pending", "failed"] as const),
    wristband_id: "wb_1",
    day_id: pick(days),
    device_id: null,
    occurred_at: new Date(occurred).toISOString(),
    created_at: new Date(occurred).toISOString(),
  };
}

function makeScan(r: () => number, id: string): Checkin {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const allowed = r() < 0.7;
  const occurred = base + Math.floor(r() * 8 * 3600_000);
  return {
    object: "checkin",
    id,
    kind: "access_check",
    allowed,
    reason: allowed ? null : pick(["zone_not_allowed", "day_not_valid", "unknown_code"]),
    ticket_code: null,
    wristband_id: null,
    zone: pick([{ id: "zone_main", name: "Main" }, { id: "zone_vip", name: "VIP" }, null]),
    device_id: null,
    day_id: pick(days),
    occurred_at: new Date(occurred).toISOString(),
    created_at: new Date(occurred).toISOString(),
  } as Checkin;
}

const tables = {
  a_sales_hour: "day_id, hour",
  a_sales_product: "day_id, product_id",
  a_sales_device: "day_id, device_id",
  a_sales_payment: "day_id, payment_method",
  a_sales_tax: "day_id, tax_type, rate",
  a_sales_late: "day_id, device_id",
  a_topups_hour: "day_id, hour, direction, payment_method, nature",
  a_scans_hour: "day_id, hour, zone_id, allowed, reason",
};

async function snapshot() {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(tables)) {
    const rows = await db.query<Record<string, unknown>>(`select * from ${table} order by ${key}`);
    out[table] = rows.map(({ latest_created_at: _, ...row }) =>
      Object.fromEntries(
        Object.entries(row).map(([k, v]) => [
          k,
          typeof v === "bigint" ? Number(v) : v instanceof Date ? v.toISOString() : v,
        ]),
      ),
    );
  }
  return out;
}

describe("live aggregates", () => {
  it("equal a full recompute after random inserts, re-sends, status changes and deletes", async () => {
    const r = rng(7);
    const sales = new Map<string, Transaction>();
    const topups = new Map<string, Topup>();
    const scans = new Map<string, Checkin>();
    let next = 0;
    for (let round = 0; round < 25; round++) {
      await db.transaction(async (tx) => {
        // A page of new records, some re-sent ones, some status changes.
        const page: Transaction[] = [];
        for (let i = 0; i < 20; i++) page.push(makeSale(r, `txn_${next++}`));
        const known = [...sales.values()];
        for (let i = 0; i < 5 && known.length; i++) {
          const old = known[Math.floor(r() * known.length)] as Transaction;
          page.push(
            r() < 0.5 ? old : { ...old, status: old.status === "completed" ? "cancelled" : "completed" },
          );
        }
        const unique = [...new Map(page.map((s) => [s.id, s])).values()];
        await upsertSales(tx, unique);
        for (const s of unique) sales.set(s.id, s);

        const tpage: Topup[] = [];
        for (let i = 0; i < 8; i++) tpage.push(makeTopup(r, `top_${next++}`));
        const tknown = [...topups.values()];
        for (let i = 0; i < 3 && tknown.length; i++) {
          const old = tknown[Math.floor(r() * tknown.length)] as Topup;
          tpage.push({ ...old, status: old.status === "completed" ? "failed" : "completed" });
        }
        const tunique = [...new Map(tpage.map((t) => [t.id, t])).values()];
        await upsertTopups(tx, tunique);
        for (const t of tunique) topups.set(t.id, t);

        const spage: Checkin[] = [];
        for (let i = 0; i < 8; i++) spage.push(makeScan(r, `chk_${next++}`));
        await upsertScans(tx, spage);
        for (const s of spage) scans.set(s.id, s);
      });
      if (round % 6 === 5) {
        // A re-walk of one day keeps only part of what the mirror holds.
        const day = days[round % days.length] as string;
        const keep = [...sales.values()].filter((s) => s.day_id === day && r() < 0.7).map((s) => s.id);
        await deleteDayRecordsNotIn(db, "m_sales", day, keep);
        for (const s of [...sales.values()]) if (s.day_id === day && !keep.includes(s.id)) sales.delete(s.id);
        const tkeep = [...topups.values()].filter((t) => t.day_id === day && r() < 0.7).map((t) => t.id);
        await deleteDayRecordsNotIn(db, "m_topups", day, tkeep);
      }
    }
    const maintained = await snapshot();
    expect(maintained.a_sales_hour?.length).toBeGreaterThan(5);
    expect(maintained.a_sales_late?.length).toBeGreaterThan(0);
    await db.query("select live_recompute_aggregates()");
    const recomputed = await snapshot();
    expect(maintained).toEqual(recomputed);

    // And the totals equal the mirror's completed sales, day by day.
    const [check] = await db.query<{ a: number; m: number }>(
      `select (select coalesce(sum(total), 0)::float8 from a_sales_hour) as a,
              (select coalesce(sum(total), 0)::float8 from m_sales where status = 'completed') as m`,
    );
    expect(check?.a).toBe(check?.m);
  });

  it("puts the two local 02:00 hours of the DST change into distinct buckets", async () => {
    await db.query("delete from m_sales");
    const sale = (id: string, at: string) => ({
      ...makeSale(rng(1), id),
      status: "completed" as const,
      occurred_at: at,
      created_at: at,
    });
    // 02:30 CEST (00:30Z) and 02:30 CET (01:30Z) on 25 Oct 2026 in Madrid.
    await upsertSales(db, [sale("dst_1", "2026-10-25T00:30:00Z"), sale("dst_2", "2026-10-25T01:30:00Z")]);
    const rows = await db.query<{ hour: Date }>("select hour from a_sales_hour order by hour");
    expect(rows.map((r) => new Date(r.hour).toISOString())).toEqual([
      "2026-10-25T00:00:00.000Z",
      "2026-10-25T01:00:00.000Z",
    ]);
  });
});

describe("live aggregates and the event time zone", () => {
  it("are rebuilt in the new zone's hours when the event's time zone changes", async () => {
    const store = await openTestDashboardStore();
    try {
      await store.query(
        `insert into m_event (id, name, currency, time_zone, starts_at, ends_at, environment, synced_at)
         values ('evt_1', 'Fest', 'EUR', 'Europe/Madrid', now(), now(), 'test', now())`,
      );
      const sale = {
        ...makeSale(rng(3), "tz_1"),
        status: "completed" as const,
        occurred_at: "2026-07-10T10:10:00Z",
      };
      await upsertSales(store, [sale]);
      const hour = async () =>
        new Date((await store.query<{ hour: Date }>("select hour from a_sales_hour"))[0]!.hour).toISOString();
      expect(await hour()).toBe("2026-07-10T10:00:00.000Z");
      await store.query("update m_event set time_zone = 'Asia/Kolkata'");
      expect(await hour()).toBe("2026-07-10T09:30:00.000Z");
    } finally {
      await store.close();
    }
  });
});
