import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ticket, Topup, Wristband } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { seededRandom } from "@/lib/testing/fake-clock";
import { insertEventDays, saleRecord, topupRecord } from "@/lib/testing/mirror-records";
import { paidTopupsByType } from "@/lib/testing/topup-types";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import {
  deleteDayRecordsNotIn,
  replaceReviewWristbands,
  upsertSales,
  upsertTickets,
  upsertTopups,
} from "../store/mirror";
import { topupsDayReport } from "./reports";
import { liabilityOf } from "./topup-insights";

/** Top-ups by ticket type and channel, the average top-up, and the unspent paid balance per day. */

const DAYS = [
  { id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" },
  { id: "day_2", starts_at: "2026-07-11T10:00:00.000Z", ends_at: "2026-07-12T04:00:00.000Z" },
];

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, DAYS);
  await db.query(
    `insert into m_ticket_types (id, name, data) values ('tt_gen', 'General', '{}'), ('tt_vip', 'VIP', '{}')`,
  );
  const ticket = (id: string, type: string, wristband: string) =>
    db.query(
      `insert into m_tickets (id, code, status, ticket_type_id, updated_at, data)
       values ($1, $1, 'used', $2, now(), $3::jsonb)`,
      [id, type, JSON.stringify({ wristband: { id: wristband, nfc: `NFC${wristband}` } })],
    );
  await ticket("t1", "tt_gen", "wb_a");
  await ticket("t2", "tt_vip", "wb_b");
  const topup = (wristband: string, amount: number, method: string, day = "day_1", nature = "paid") => ({
    ...topupRecord({
      device: "topup-01",
      day,
      occurred: day === "day_1" ? "2026-07-10T18:00:00Z" : "2026-07-11T18:00:00Z",
      amount,
    }),
    wristband_id: wristband,
    payment_method: method,
    nature,
  });
  await upsertTopups(db, [
    topup("wb_a", 2000, "card"),
    topup("wb_a", 1000, "online"),
    topup("wb_b", 5000, "online"),
    topup("wb_c", 3000, "cash"), // a wristband without a known ticket
    topup("wb_b", 500, "promo", "day_1", "bonus"),
    topup("wb_a", 4000, "card", "day_2"),
  ] as never);
  await upsertTopups(db, [
    topupRecord({
      device: "refund-01",
      day: "day_1",
      occurred: "2026-07-11T01:00:00Z",
      amount: 1000,
      direction: "withdraw",
    }),
  ]);
  await upsertSales(db, [
    {
      ...saleRecord({ device: "bar-1", day: "day_1", occurred: "2026-07-10T20:00:00Z", total: 3500 }),
      payment_method: "wristband",
    },
    {
      ...saleRecord({ device: "bar-1", day: "day_2", occurred: "2026-07-11T20:00:00Z", total: 2000 }),
      payment_method: "card",
    },
  ]);
});
afterAll(async () => {
  await db?.close();
});

describe("top-up insights", () => {
  it("by ticket type, by channel, and the average paid top-up of a day", async () => {
    const report = await topupsDayReport(db, { dayId: "day_1", now: new Date("2026-07-11T09:00:00Z") });
    const i = report.insights!;
    expect(i.average_topup).toBe(Math.round(11_000 / 4));
    expect(i.by_ticket_type).toEqual([
      { ticket_type: "VIP", count: 1, amount: 5000, average: 5000 },
      { ticket_type: "General", count: 2, amount: 3000, average: 1500 },
      { ticket_type: null, count: 1, amount: 3000, average: 3000 },
    ]);
    expect(i.by_channel).toEqual([
      { channel: "online", count: 2, amount: 6000 },
      { channel: "on_site", count: 2, amount: 5000 },
    ]);
  });

  it("the unspent paid balance at the end of each day: promo credit is spent first", async () => {
    const report = await topupsDayReport(db, { dayId: "day_2", now: new Date("2026-07-12T09:00:00Z") });
    // Day 1: 11,000 paid in, 500 promo, 1,000 withdrawn, 3,500 spent at bars (500 of it promo).
    // Day 2: 4,000 more paid in; the card sale does not touch balances.
    expect(report.insights!.liability).toEqual([
      {
        day_id: "day_1",
        name: "Day 1",
        mirrored: true,
        loaded: 11_000,
        withdrawn: 1000,
        spent: 3000,
        unspent: 7000,
        share: 7000 / 11_000,
      },
      {
        day_id: "day_2",
        name: "Day 2",
        mirrored: true,
        loaded: 15_000,
        withdrawn: 1000,
        spent: 3000,
        unspent: 11_000,
        share: 11_000 / 15_000,
      },
    ]);
  });

  it("no share before anything is loaded", () => {
    expect(liabilityOf([{ id: "d", name: "D" }], [])).toEqual([
      { day_id: "d", name: "D", mirrored: true, loaded: 0, withdrawn: 0, spent: 0, unspent: 0, share: null },
    ]);
  });

  it("no figure from a day whose records are still being mirrored, nor from the days after it", () => {
    const days = [
      { id: "d1", name: "D1" },
      { id: "d2", name: "D2" },
      { id: "d3", name: "D3" },
    ];
    const flows = days.map((d) => ({
      day_id: d.id,
      paid_in: 1000,
      promo_in: 0,
      withdrawn: 0,
      wristband_sales: d.id === "d2" ? 5000 : 0, // d2's sales are in, its top-ups not yet
    }));
    const rows = liabilityOf(days, flows, (id) => id !== "d2");
    expect(rows.map((r) => [r.day_id, r.mirrored, r.unspent])).toEqual([
      ["d1", true, 1000],
      ["d2", false, null],
      ["d3", false, null],
    ]);
  });

  it("while an earlier day is still being mirrored, the screen's liability waits for it", async () => {
    await db.query(
      "insert into sync_backfill (resource, day_id, position, done) values ('topups', 'day_1', 0, false)",
    );
    try {
      const report = await topupsDayReport(db, { dayId: "day_2", now: new Date("2026-07-12T09:00:00Z") });
      expect(report.insights?.liability.map((r) => r.mirrored)).toEqual([false, false]);
    } finally {
      await db.query("delete from sync_backfill");
    }
  });
});

describe("paid top-ups by ticket type, kept by the mirror's triggers", () => {
  /** The read-time join for a fixture where each wristband has one ticket that names it. */
  const joined = `select t.day_id, coalesce((select k.ticket_type_id from m_tickets k
      where (k.data->'wristband'->>'id') = t.wristband_id order by k.id limit 1), '') as ticket_type_id,
      count(*)::float8 as count, sum(t.amount)::float8 as amount
    from m_topups t where t.status = 'completed' and t.direction = 'topup' and t.nature = 'paid'
    group by 1, 2 order by 1, 2`;
  const kept = `select day_id, ticket_type_id, count::float8 as count, amount::float8 as amount
    from a_topups_ticket_type order by 1, 2`;

  /**
   * What the table must hold, computed here from what the test sent: each wristband counts under
   * the first ticket the mirror saw linked to it (by a ticket naming it, or by the review queue
   * listing it with its ticket), whose type is the one that ticket has now ('' if none is known).
   */
  function expected(topups: Map<string, Topup>, tickets: Map<string, Ticket>, links: Map<string, string>) {
    const typeOfCode = new Map([...tickets.values()].map((t) => [t.code, t.ticket_type.id]));
    return paidTopupsByType(topups.values(), (wristband) => typeOfCode.get(links.get(wristband) ?? "") ?? "");
  }

  it("follow each wristband's own ticket, whatever order tickets, review pairs and top-ups arrive in", async () => {
    const store = await openTestDashboardStore();
    try {
      await insertEventDays(store, DAYS);
      const r = seededRandom(20261125);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
      const wristbands = Array.from({ length: 30 }, (_, i) => `wb_${i}`);
      const topups = new Map<string, Topup>();
      const tickets = new Map<string, Ticket>();
      /** wristband → the code of the first ticket seen linked to it (a link never changes upstream). */
      const links = new Map<string, string>();
      const free = [...wristbands];
      let clock = Date.parse("2026-07-10T12:00:00Z");
      let moves = 0;
      for (let round = 0; round < 60; round++) {
        await store.transaction(async (tx) => {
          // Top-ups: new ones, and re-sends of known ones whose status changed.
          const page: Topup[] = [];
          for (let i = 0, n = Math.floor(r() * 12); i < n; i++) {
            const day = pick(["day_1", "day_2"]);
            page.push({
              ...topupRecord({ device: "topup-01", day, occurred: new Date(clock).toISOString() }),
              wristband_id: pick(wristbands),
              amount: 500 + Math.floor(r() * 50) * 100,
              direction: r() < 0.85 ? "topup" : "withdraw",
              nature: pick(["paid", "paid", "paid", "bonus"]),
              status: r() < 0.9 ? "completed" : "failed",
            } as Topup);
          }
          for (const known of [...topups.values()].filter(() => r() < 0.04))
            page.push({ ...known, status: known.status === "completed" ? "failed" : "completed" });
          const unique = [...new Map(page.map((t) => [t.id, t])).values()];
          await upsertTopups(tx, unique);
          for (const t of unique) topups.set(t.id, t);

          // Tickets: new ones (checked in with a wristband not linked yet, or not yet), and changes
          // of known ones: another type, or (a review kept the other one) another wristband.
          const changed: Ticket[] = [];
          for (let i = 0, n = Math.floor(r() * 5); i < n; i++) {
            const known = r() < 0.5 && tickets.size ? pick([...tickets.values()]) : null;
            const id = known?.id ?? `tk_${round}_${i}`;
            const own = [...links].filter(([, code]) => code === id).map(([w]) => w);
            const wristband =
              known && r() < 0.5 && own.length
                ? { id: pick(own), nfc: "NFC", uhf: null }
                : free.length && r() < 0.8
                  ? { id: free.splice(Math.floor(r() * free.length), 1)[0]!, nfc: "NFC", uhf: null }
                  : (known?.wristband ?? null);
            changed.push({
              id,
              code: id,
              status: wristband ? "used" : "active",
              ticket_type: {
                id: r() < 0.7 && known ? known.ticket_type.id : pick(["tt_gen", "tt_vip", "tt_day"]),
                name: "",
              },
              attendee: { name: `Guest ${id}` },
              wristband,
              updated_at: new Date(clock).toISOString(),
            } as unknown as Ticket);
            if (known) moves++;
          }
          const uniqueTickets = [...new Map(changed.map((t) => [t.id, t])).values()];
          await upsertTickets(tx, uniqueTickets);
          for (const t of uniqueTickets) {
            tickets.set(t.id, t);
            if (t.wristband && !links.has(t.wristband.id)) links.set(t.wristband.id, t.code);
          }
        });
        if (round % 5 === 2) {
          // The review queue: a second wristband checked in for a ticket the mirror knows, listed
          // with its ticket (the ticket itself still names the first one).
          const ticket = tickets.size ? pick([...tickets.values()]) : null;
          const second = free.length ? free.splice(Math.floor(r() * free.length), 1)[0]! : null;
          if (ticket && second) {
            await replaceReviewWristbands(store, [
              {
                id: second,
                nfc: `NFC-${second}`,
                status: "pending_review",
                updated_at: new Date(clock).toISOString(),
                ticket: { code: ticket.code, ticket_type: "" },
              } as unknown as Wristband,
            ]);
            links.set(second, ticket.code);
          } else await replaceReviewWristbands(store, []);
        }
        if (round % 7 === 3 && tickets.size) {
          const gone = pick([...tickets.keys()]);
          await store.query("delete from m_tickets where id = $1", [gone]);
          tickets.delete(gone);
        }
        if (round % 9 === 8) {
          // A re-walk of a day keeps part of what the mirror holds.
          const keep = [...topups.values()].filter((t) => t.day_id === "day_1" && r() < 0.7);
          await deleteDayRecordsNotIn(
            store,
            "m_topups",
            "day_1",
            keep.map((t) => t.id),
          );
          for (const t of [...topups.values()])
            if (t.day_id === "day_1" && !keep.includes(t)) topups.delete(t.id);
        }
        clock += 60_000;
        expect(await store.query(kept), `round ${round}`).toEqual(expected(topups, tickets, links));
      }
      expect(moves).toBeGreaterThan(20);
      const types = await store.query<{ ticket_type_id: string }>(kept);
      expect(new Set(types.map((t) => t.ticket_type_id))).toEqual(
        new Set(["", "tt_gen", "tt_vip", "tt_day"]),
      );

      // The whole rebuild gives the same rows.
      const before = await store.query(kept);
      await store.query("select live_recompute_topup_types()");
      expect(await store.query(kept)).toEqual(before);
    } finally {
      await store.close();
    }
  });

  it("holds the fixture's paid top-ups under their tickets' types", async () => {
    const rows = await db.query(kept);
    expect(rows).toEqual(await db.query(joined));
    expect(rows.length).toBeGreaterThan(0);
  });
});
