import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Topup, Transaction } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { saleRecord } from "@/lib/testing/mirror-records";
import { signoffRequest, TEST_TOLERANCE } from "@/lib/testing/signoff-request";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { mirrorDayTotals, upsertSales, upsertTopups } from "../store/mirror";
import { setFloat } from "./counting";
import { nightReport as report_, requestResync } from "./night";
import { nightCsv } from "./night-csv";
import { signOff as signOff_ } from "./signoff";

/**
 * Night reconciliation against a real store (PGlite; DATABASE_URL runs it in a throwaway
 * PostgreSQL schema): figures, expected cash, late arrivals, sign-off snapshots that never change, drift.
 */

let db: Db;
const DAY = { id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" };
const USER = { id: "u_sup", username: "supervisor", role: "supervisor" };
const after = new Date("2026-07-11T09:00:00.000Z");

const nightReport = (db: Db, o: { dayId: string; now: Date }) =>
  report_(db, { ...o, tolerance: TEST_TOLERANCE });
/** A sign-off of a night never checked against an upstream summary here: signed against that. */
const signOff = async (
  db: Db,
  user: typeof USER,
  request: {
    day_id: string;
    comment?: string;
    counted?: { device_id: string; payment_method: string; counted: number }[];
  },
  now: Date,
) =>
  (
    await signOff_(
      db,
      user,
      signoffRequest({ sign_against_difference: true, ...request, based_on: (await lastId(db)) ?? null }),
      { tolerance: TEST_TOLERANCE, now },
    )
  ).signoff;
const lastId = async (db: Db) =>
  (await db.query<{ id: string }>("select max(id)::text as id from recon_signoffs where day_id = 'day_1'"))[0]
    ?.id;

beforeAll(async () => {
  // Its own store (a fresh schema on PostgreSQL): sign-offs are immutable, so a shared one would keep earlier runs' rows.
  db = await openTestDashboardStore();
  await db.query(
    `insert into m_event (id, name, currency, time_zone, starts_at, ends_at, environment, synced_at)
     values ('evt_1', 'Fest', 'EUR', 'Europe/Madrid', '2026-07-10T10:00:00Z', '2026-07-13T04:00:00Z', 'test', now())
     on conflict do nothing`,
  );
  await db.query(
    `insert into m_days (id, name, date, starts_at, ends_at) values
       ('day_1', 'Friday', '2026-07-10', $1, $2), ('day_2', 'Saturday', '2026-07-11', $2, '2026-07-12T04:00:00Z')
     on conflict do nothing`,
    [DAY.starts_at, DAY.ends_at],
  );
  let n = 0;
  const id = () => `sale${String(++n).padStart(20, "0")}`;
  await upsertSales(db, [
    sale(id(), "bar_1", "cash", 1210, "2026-07-10T20:00:00Z"),
    sale(id(), "bar_1", "wristband", 2420, "2026-07-10T21:00:00Z"),
    sale(id(), "bar_2", "card", 605, "2026-07-10T22:00:00Z"),
    sale(id(), "bar_2", "cash", -121, "2026-07-10T23:00:00Z", "return"),
    { ...sale(id(), "bar_2", "cash", 9999, "2026-07-10T23:30:00Z"), status: "cancelled" },
  ]);
  await upsertTopups(db, [
    topup("t1", "desk_1", "topup", "cash", "paid", 5000),
    topup("t2", "desk_1", "topup", "promo", "bonus", 500),
    topup("t3", "desk_1", "topup", "card", "paid", 2000),
    topup("t4", "refund_1", "withdraw", "cash", "paid", 700),
  ]);
});
afterAll(async () => {
  await db?.close();
});

function sale(
  id: string,
  device: string,
  method: "cash" | "card" | "wristband",
  total: number,
  occurred: string,
  type: "cart" | "return" = "cart",
  created = occurred,
): Transaction {
  return {
    ...saleRecord({ id, device, day: "day_1", occurred, created, total, type }),
    payment_method: method,
  };
}

function topup(
  id: string,
  device: string,
  direction: "topup" | "withdraw",
  method: "cash" | "card" | "promo",
  nature: "paid" | "bonus",
  amount: number,
): Topup {
  return {
    object: "topup",
    id: id.padEnd(24, "0"),
    direction,
    amount,
    previous_balance: 0,
    new_balance: 0,
    payment_method: method,
    nature,
    status: "completed",
    wristband_id: "wb_1",
    day_id: "day_1",
    device_id: device,
    occurred_at: "2026-07-10T19:00:00.000Z",
    created_at: "2026-07-10T19:00:00.000Z",
  } as Topup;
}

describe("night reconciliation", () => {
  it("adds up the night by occurred_at, equal to the mirror's checksum totals", async () => {
    const report = await nightReport(db, { dayId: "day_1", now: after });
    const f = report.figures!;
    const totals = await mirrorDayTotals(db, "day_1");
    expect(f.sales).toEqual(totals.sales);
    expect(f.topups).toEqual(totals.topups);
    expect(f.withdrawals).toEqual(totals.withdrawals);
    expect(f.sales).toMatchObject({ count: 4, total: 1210 + 2420 + 605 - 121 });
    expect(f.bonuses).toEqual({ count: 1, amount: 500 });
    expect(f.sales_by_payment_method.reduce((n, r) => n + r.total, 0)).toBe(f.sales.total);
    expect(f.sales_by_device.reduce((n, r) => n + r.total, 0)).toBe(f.sales.total);
    expect(f.expected).toEqual([
      {
        device_id: "bar_1",
        payment_method: "cash",
        float: 0,
        topups: 0,
        withdrawals: 0,
        sales: 1210,
        expected: 1210,
      },
      {
        device_id: "bar_2",
        payment_method: "card",
        float: 0,
        topups: 0,
        withdrawals: 0,
        sales: 605,
        expected: 605,
      },
      {
        device_id: "bar_2",
        payment_method: "cash",
        float: 0,
        topups: 0,
        withdrawals: 0,
        sales: -121,
        expected: -121,
      },
      {
        device_id: "desk_1",
        payment_method: "card",
        float: 0,
        topups: 2000,
        withdrawals: 0,
        sales: 0,
        expected: 2000,
      },
      {
        device_id: "desk_1",
        payment_method: "cash",
        float: 0,
        topups: 5000,
        withdrawals: 0,
        sales: 0,
        expected: 5000,
      },
      {
        device_id: "refund_1",
        payment_method: "cash",
        float: 0,
        topups: 0,
        withdrawals: 700,
        sales: 0,
        expected: -700,
      },
    ]);
    expect(report.ended).toBe(true);
    expect(report.late).toMatchObject({ count: 0 });
    expect(report.checksum).toMatchObject({ upstream: null, matched: null });
  });

  it("signs off with a frozen snapshot; a late record shows as drift until the next sign-off", async () => {
    const first = await signOff(
      db,
      USER,
      {
        day_id: "day_1",
        comment: "all good",
        counted: [{ device_id: "desk_1", payment_method: "cash", counted: 4950 }],
      },
      new Date("2026-07-11T08:00:00Z"),
    );
    expect(first.counted).toEqual([
      { device_id: "desk_1", payment_method: "cash", counted: 4950, expected: 5000, variance: -50 },
    ]);
    expect((await nightReport(db, { dayId: "day_1", now: after })).drift).toBeNull();

    // An offline bar syncs a sale of the night after it ended (and after the sign-off).
    await upsertSales(db, [
      sale(
        "late0000000000000000000a",
        "bar_late",
        "cash",
        3630,
        "2026-07-11T01:00:00Z",
        "cart",
        "2026-07-11T08:30:00Z",
      ),
    ]);
    const report = await nightReport(db, { dayId: "day_1", now: after });
    expect(report.late).toMatchObject({
      count: 1,
      amount: 3630,
      latest_created_at: "2026-07-11T08:30:00.000Z",
      by_device: [{ device_id: "bar_late", count: 1, amount: 3630 }],
    });
    expect(report.drift).toMatchObject({ signoff_id: first.id, sales_count: 1, sales_total: 3630 });
    expect(report.drift!.lines.map((l) => l.key)).toEqual(
      expect.arrayContaining([
        "sales.count",
        "sales.total",
        "sales.device.bar_late",
        "expected.bar_late.cash",
      ]),
    );
    // The snapshot did not move.
    expect(report.signoffs[0]!.snapshot).toEqual(first.snapshot);

    const second = await signOff(db, USER, { day_id: "day_1", comment: "late bar", counted: [] }, after);
    const again = await nightReport(db, { dayId: "day_1", now: after });
    expect(again.drift).toBeNull();
    expect(again.signoffs.map((s) => s.id)).toEqual([second.id, first.id]);
    expect(again.signoffs[1]!.snapshot.figures.sales.count).toBe(4);
    expect(again.signoffs[0]!.snapshot.figures.sales.count).toBe(5);
  });

  it("shows the summary's totals and refuses sign-off while the night's records are still being mirrored", async () => {
    const summary = {
      object: "sales_summary",
      day_id: "day_1",
      currency: "EUR",
      sales: { count: 9, total: 9000, total_base: 7438, total_tax: 1562 },
      by_payment_method: [{ payment_method: "card", count: 9, total: 9000 }],
      by_tax: [{ tax_type: "VAT", rate: 21, base: 7438, amount: 1562 }],
      by_product: [],
      topups: {
        count: 1,
        amount: 5000,
        by_payment_method: [{ payment_method: "card", count: 1, amount: 5000 }],
      },
      withdrawals: { count: 0, amount: 0, by_payment_method: [] },
      bonuses: { count: 0, amount: 0 },
      generated_at: "2026-07-11T08:59:00.000Z",
    };
    await db.query(
      "insert into sync_day_summaries (day_id, summary, fetched_at) values ('day_1', $1::jsonb, $2)",
      [JSON.stringify(summary), after.toISOString()],
    );
    await db.query("insert into sync_backfill (resource, day_id, position) values ('sales', 'day_1', 0)");
    try {
      const report = await nightReport(db, { dayId: "day_1", now: after });
      expect(report.figures_source).toEqual({ source: "summary", summary_at: summary.generated_at });
      expect(report.figures?.sales).toEqual(summary.sales);
      expect(report.figures?.topups).toEqual({ count: 1, amount: 5000 });
      // The checksum still compares the mirror's own figures with the summary: that is its job.
      expect(report.checksum?.difference?.sales_total).not.toBe(0);
      const refused = await signOff(db, USER, { day_id: "day_1", counted: [] }, after).catch((e) => e);
      expect(refused).toMatchObject({ code: "night_incomplete", status: 409 });
    } finally {
      await db.query("delete from sync_backfill");
      await db.query("delete from sync_day_summaries");
    }
    const complete = await nightReport(db, { dayId: "day_1", now: after });
    expect(complete.figures_source.source).toBe("mirror");
  });

  it("refuses to sign off a night that has not ended (409 night_not_ended, times in the event's zone)", async () => {
    const during = new Date("2026-07-11T03:00:00Z");
    const refused = await signOff(db, USER, { day_id: "day_1", counted: [] }, during).catch((e) => e);
    expect(refused).toMatchObject({ code: "night_not_ended", status: 409 });
    // 04:00 UTC is 06:00 in Madrid.
    expect(refused.message).toContain("Sat 11 Jul 06:00:00");
    const before = await db.query("select count(*)::int as n from recon_signoffs where signed_at = $1", [
      during,
    ]);
    expect(before[0]).toEqual({ n: 0 });
  });

  it("refuses any change to a sign-off in the store itself", async () => {
    const [row] = await db.query<{ id: string }>("select id from recon_signoffs order by id limit 1");
    await expect(
      db.query("update recon_signoffs set comment = 'edited' where id = $1", [row!.id]),
    ).rejects.toThrow(/immutable/);
    await expect(
      db.query(`update recon_signoffs set snapshot = '{}'::jsonb where id = $1`, [row!.id]),
    ).rejects.toThrow(/immutable/);
    await expect(db.query("delete from recon_signoffs where id = $1", [row!.id])).rejects.toThrow(
      /immutable/,
    );
    // (a later sign-off, or an approval, refers to it: the foreign key refuses first)
    await expect(db.query("truncate recon_signoffs")).rejects.toThrow(/immutable|foreign key/);
    const [still] = await db.query<{ comment: string }>("select comment from recon_signoffs where id = $1", [
      row!.id,
    ]);
    expect(still!.comment).toBe("all good");
  });

  it("compares with the worker's last summary and shows the difference", async () => {
    const upstream = {
      sales: { count: 6, total: 7744 + 1000, total_base: 0, total_tax: 0 },
      topups: { count: 3, amount: 7500 },
      withdrawals: { count: 1, amount: 700 },
      generated_at: after.toISOString(),
    };
    await db.query(
      `insert into sync_day_checks (day_id, checked_at, matched, upstream, mirror) values ('day_1', now(), false, $1::jsonb, '{}'::jsonb)`,
      [JSON.stringify(upstream)],
    );
    const report = await nightReport(db, { dayId: "day_1", now: after });
    expect(report.figures!.sales.total).toBe(7744);
    expect(report.checksum).toMatchObject({
      matched: false,
      difference: { sales_count: 1, sales_total: 1000, topups_amount: 0, withdrawals_amount: 0 },
    });
    const req = await requestResync(db, "day_1", "supervisor", after);
    expect(await requestResync(db, "day_1", "supervisor", new Date(after.getTime() + 60_000))).toEqual(req);
    expect((await nightReport(db, { dayId: "day_1", now: after })).checksum!.resync_pending_since).toBe(
      req.requested_at,
    );
    await expect(requestResync(db, "nope", "supervisor", after)).rejects.toThrow(/Unknown day_id/);
  });

  it("exports a CSV whose sums equal the screen", async () => {
    const report = await nightReport(db, { dayId: "day_1", now: after });
    const rows = nightCsv(report)
      .trim()
      .split("\r\n")
      .slice(1)
      .map((l) => l.split(","));
    const sum = (section: string) =>
      Math.round(rows.filter((r) => r[0] === section).reduce((n, r) => n + Number(r[4]) * 100, 0));
    const total = Math.round(Number(rows.find((r) => r[0] === "sales" && r[1] === "total")![4]) * 100);
    expect(total).toBe(report.figures!.sales.total);
    expect(sum("sales_by_payment_method")).toBe(total);
    expect(sum("sales_by_terminal")).toBe(total);
    expect(sum("sales_tax_base") + sum("sales_tax_amount")).toBe(total);
    // In Spanish: the header and the labels change, the keys and the figures do not.
    const spanish = nightCsv(report, "es").trim().split("\r\n");
    expect(spanish[0]).toBe("seccion,clave,etiqueta,cantidad,importe");
    const salesLine = spanish.find((l) => l.startsWith("sales,total,"));
    expect(salesLine).toBe(
      `sales,total,Ventas,${report.figures!.sales.count},${rows.find((r) => r[0] === "sales" && r[1] === "total")![4]}`,
    );
  });

  it("the CSV holds the latest sign-off's counted lines, variances, notes and coins, and the floats", async () => {
    await setFloat(db, USER, { day_id: "day_1", device_id: "desk_1", amount: 10_000 }, after);
    const signoff = (
      await signOff_(
        db,
        USER,
        signoffRequest({
          day_id: "day_1",
          based_on: (await lastId(db)) ?? null,
          sign_against_difference: true,
          comment: "desk 1 short",
          // desk_1 cash expects 100.00 float + 50.00 top-ups: 148.00 counted in notes and coins
          counted: [
            {
              device_id: "desk_1",
              payment_method: "cash",
              denominations: { "10000": 1, "2000": 2, "500": 1, "100": 3 },
            },
            { device_id: "desk_1", payment_method: "card", counted: 2000 },
          ],
        }),
        { tolerance: TEST_TOLERANCE, now: after },
      )
    ).signoff;
    expect(signoff.counted[0]).toMatchObject({ counted: 14_800, expected: 15_000, variance: -200 });
    const csv = nightCsv(await nightReport(db, { dayId: "day_1", now: after })).split("\r\n");
    expect(csv).toEqual(
      expect.arrayContaining([
        "float,desk_1,Opening float,,100.00",
        `signoff_status,${signoff.id},Sign-off state: final,,`,
        "counted_cash,desk_1,desk_1,,148.00",
        "variance_cash,desk_1,desk_1,,-2.00",
        "counted_card,desk_1,desk_1,,20.00",
        "variance_card,desk_1,desk_1,,0.00",
        "counted_pieces,desk_1:10000,desk_1 100.00,1,100.00",
        "counted_pieces,desk_1:2000,desk_1 20.00,2,40.00",
        "counted_cash,bar_1,bar_1 (not counted),,",
      ]),
    );
    expect(csv.filter((l) => l.startsWith("variance_"))).toHaveLength(2);
  });
});
