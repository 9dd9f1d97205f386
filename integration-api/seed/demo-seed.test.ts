import { createHash } from "node:crypto";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDb, testDatabaseUrls } from "../../lib/testing/test-db";
import { type BonusRule, quoteLine, remainingCap, validRules } from "../services/bonus-rules";
import type { Db } from "../store/db";
import { migrate } from "../store/migrate";
import {
  DEMO_EVENT,
  DEMO_GATES,
  DEMO_PRODUCTS,
  DEMO_STANDS,
  DEMO_TICKET_TYPES,
  DEMO_ZONES,
} from "./demo-catalog";
import { buildDemo, demoDays, type SeedOptions, type SeedSummary, seedDemo } from "./demo-seed";

const TZ = "Europe/Madrid";
// Monday 27 Oct 2025, 20:30 in Madrid: the night of Sat 25 → Sun 26 Oct (day 1) contains the
// change from summer to winter time, so day 1 lasts 19 hours.
const NOW = new Date("2025-10-27T19:30:00.000Z");
const OPTIONS: SeedOptions = { scale: 0.05, random: 7, now: NOW };
const HOUR = 3_600_000;

const local = (d: Date) => DateTime.fromJSDate(d, { zone: TZ });

async function freshDb(): Promise<Db> {
  const db = await openTestDb(testDatabaseUrls.api);
  await migrate(db);
  return db;
}

const TABLES = [
  "event",
  "days",
  "zones",
  "ticket_types",
  "bonus_rules",
  "tickets",
  "wristbands",
  "sales",
  "topups",
  "scans",
];

async function dump(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES)
    parts.push(JSON.stringify(await db.query(`select * from ${table} order by id`)));
  return parts.join("\n");
}

describe("demoDays", () => {
  it("gives two past days, today and one future day, each from 12:00 to 06:00 local", () => {
    const days = demoDays(new Date("2025-11-20T15:00:00.000Z"), TZ);
    expect(days.map((d) => d.date)).toEqual(["2025-11-18", "2025-11-19", "2025-11-20", "2025-11-21"]);
    expect(days[0].name).toBe("Day 1 · Tue 18 Nov");
    expect(days[3].name).toBe("Day 4 · Fri 21 Nov");
    for (const d of days) {
      const start = local(d.startsAt);
      const end = local(d.endsAt);
      expect(start.toFormat("yyyy-MM-dd HH:mm")).toBe(`${d.date} 12:00`);
      expect(end.toFormat("HH:mm")).toBe("06:00");
      expect(end.toFormat("yyyy-MM-dd")).toBe(start.plus({ days: 1 }).toFormat("yyyy-MM-dd"));
      expect(d.endsAt.getTime() - d.startsAt.getTime()).toBe(18 * HOUR);
    }
  });

  it("counts the hours before 06:00 local as the previous day", () => {
    expect(demoDays(new Date("2025-11-20T04:59:59.000Z"), TZ)[2].date).toBe("2025-11-19"); // 05:59:59 local
    expect(demoDays(new Date("2025-11-20T05:00:00.000Z"), TZ)[2].date).toBe("2025-11-20"); // 06:00 local
    expect(demoDays(new Date("2025-11-19T23:30:00.000Z"), TZ)[2].date).toBe("2025-11-19"); // 00:30 local
  });

  it("is DST-correct in October (19-hour night) and March (17-hour night)", () => {
    const october = demoDays(NOW, TZ);
    expect(october.map((d) => d.date)).toEqual(["2025-10-25", "2025-10-26", "2025-10-27", "2025-10-28"]);
    expect(october[0].startsAt.toISOString()).toBe("2025-10-25T10:00:00.000Z"); // 12:00 CEST
    expect(october[0].endsAt.toISOString()).toBe("2025-10-26T05:00:00.000Z"); // 06:00 CET
    expect(october[0].endsAt.getTime() - october[0].startsAt.getTime()).toBe(19 * HOUR);
    expect(october[1].startsAt.toISOString()).toBe("2025-10-26T11:00:00.000Z"); // 12:00 CET

    const march = demoDays(new Date("2026-03-30T18:00:00.000Z"), TZ);
    expect(march[0].date).toBe("2026-03-28");
    expect(march[0].startsAt.toISOString()).toBe("2026-03-28T11:00:00.000Z"); // 12:00 CET
    expect(march[0].endsAt.toISOString()).toBe("2026-03-29T04:00:00.000Z"); // 06:00 CEST
  });
});

describe("seedDemo", () => {
  let db: Db;
  let summary: SeedSummary;
  let indexesBefore: unknown[];
  const INDEXES =
    "select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema() order by 1, 2";

  beforeAll(async () => {
    db = await freshDb();
    indexesBefore = await db.query(INDEXES);
    summary = await seedDemo(db, OPTIONS);
  });
  afterAll(async () => {
    await db?.close();
  });

  const count = async (sql: string, params?: unknown[]) =>
    Number((await db.query<{ n: number }>(sql, params))[0].n);

  it("writes what the summary says, with a few dozen records at a small scale", async () => {
    expect(summary.days).toBe(4);
    for (const table of ["tickets", "wristbands", "sales", "topups", "scans", "days"] as const) {
      expect(await count(`select count(*)::int as n from ${table}`), table).toBe(summary[table]);
    }
    expect(summary.tickets).toBeGreaterThanOrEqual(200);
    expect(summary.sales).toBeGreaterThanOrEqual(2000);
    expect(summary.topups).toBeGreaterThanOrEqual(100);
    const [event] = await db.query<Record<string, unknown>>("select * from event");
    expect(event).toMatchObject({ currency: "EUR", time_zone: TZ, bonus_cap_per_person: 2500 });
    expect(await count("select count(*)::int as n from zones")).toBe(DEMO_ZONES.length);
    expect(await count("select count(*)::int as n from ticket_types")).toBe(DEMO_TICKET_TYPES.length);
    // The indexes dropped for the bulk insert are all back, exactly as the migrations made them.
    expect(indexesBefore.length).toBeGreaterThan(10);
    expect(await db.query(INDEXES)).toEqual(indexesBefore);
  });

  it("stores day windows from 12:00 local to 06:00 local the next day", async () => {
    const rows = await db.query<{ date: string; s: string; e: string; hours: number }>(
      `select to_char(date, 'YYYY-MM-DD') as date,
              to_char(starts_at at time zone '${TZ}', 'YYYY-MM-DD HH24:MI') as s,
              to_char(ends_at at time zone '${TZ}', 'YYYY-MM-DD HH24:MI') as e,
              (extract(epoch from ends_at - starts_at) / 3600)::int as hours
         from days order by starts_at`,
    );
    expect(rows.map((r) => r.date)).toEqual(["2025-10-25", "2025-10-26", "2025-10-27", "2025-10-28"]);
    for (const r of rows) {
      expect(r.s).toBe(`${r.date} 12:00`);
      expect(r.e).toBe(`${DateTime.fromISO(r.date).plus({ days: 1 }).toISODate()} 06:00`);
    }
    expect(rows.map((r) => r.hours)).toEqual([19, 18, 18, 18]);
  });

  it("has every ticket and wristband status", async () => {
    const ticketStatuses = (await db.query<{ status: string }>("select distinct status from tickets")).map(
      (r) => r.status,
    );
    expect(ticketStatuses.sort()).toEqual(["active", "inactive", "used"]);
    const wristbandStatuses = (
      await db.query<{ status: string }>("select distinct status from wristbands")
    ).map((r) => r.status);
    expect(wristbandStatuses.sort()).toEqual(["active", "blocked", "lost", "pending_review", "released"]);
  });

  it("links used tickets and their wristbands consistently", async () => {
    expect(
      await count(`select count(*)::int as n from tickets t
        where (t.status = 'used') <> (t.wristband_id is not null and t.checked_in_at is not null)
           or t.updated_at < t.created_at
           or (t.status = 'used' and t.updated_at < t.checked_in_at)`),
    ).toBe(0);
    expect(
      await count(`select count(*)::int as n from tickets t left join wristbands w on w.id = t.wristband_id
        where t.wristband_id is not null and (w.id is null or w.ticket_id <> t.id)`),
    ).toBe(0);
    // A ticket's wristband: its type's zones plus extra zones, its days, its attendee.
    expect(
      await count(`select count(*)::int as n from wristbands w
        join tickets t on t.id = w.ticket_id join ticket_types tt on tt.id = t.ticket_type_id
        where not (w.zone_ids @> tt.zone_ids and w.zone_ids @> t.extra_zone_ids
                   and w.zone_ids <@ (tt.zone_ids || t.extra_zone_ids))
           or w.valid_day_ids <> t.valid_day_ids or w.attendee_name <> t.attendee_name`),
    ).toBe(0);
    expect(
      await count("select count(*)::int as n from tickets where cardinality(extra_zone_ids) > 0"),
    ).toBeGreaterThan(0);
    // Anonymous wristbands: no attendee, every day, the General Area only.
    const anonymous = await db.query<{ attendee_name: string | null; days: number; zones: string[] }>(
      `select w.attendee_name, cardinality(w.valid_day_ids)::int as days, array(select z.name from zones z where z.id = any(w.zone_ids)) as zones
         from wristbands w where w.ticket_id is null`,
    );
    expect(anonymous.length).toBeGreaterThan(0);
    for (const w of anonymous) expect(w).toEqual({ attendee_name: null, days: 4, zones: ["General Area"] });
    // Day tickets have one day, the others all four.
    const days = await db.query<{ name: string; days: number }>(
      `select distinct tt.name, cardinality(t.valid_day_ids)::int as days
         from tickets t join ticket_types tt on tt.id = t.ticket_type_id order by 1`,
    );
    for (const d of days) expect(d.days, d.name).toBe(d.name === "Day Ticket" ? 1 : 4);
    // Codes.
    expect(await count("select count(*)::int as n from tickets where code !~ '^TK-[A-Z0-9]{8}$'")).toBe(0);
    expect(
      await count(
        "select count(*)::int as n from wristbands where nfc !~ '^[0-9A-F]{14}$' or uhf !~ '^[0-9A-F]{24}$'",
      ),
    ).toBe(0);
  });

  it("has pending_review pairs: two wristbands of one used ticket, both with balance", async () => {
    const pairs = await db.query<{
      ticket: string;
      linked: string;
      ids: string[];
      statuses: string[];
      funds: number[];
    }>(
      `select t.id as ticket, t.wristband_id as linked, array_agg(w.id order by w.id) as ids,
              array_agg(w.status order by w.id) as statuses, array_agg(w.balance + w.promo_balance order by w.id) as funds
         from tickets t join wristbands w on w.ticket_id = t.id
        group by t.id having count(*) > 1`,
    );
    expect(pairs.length).toBeGreaterThanOrEqual(2);
    for (const p of pairs) {
      expect(p.ids).toHaveLength(2);
      expect(p.statuses).toEqual(["pending_review", "pending_review"]);
      expect(p.ids).toContain(p.linked);
      for (const f of p.funds) expect(f).toBeGreaterThan(0);
    }
    expect(await count("select count(*)::int as n from wristbands where status = 'pending_review'")).toBe(
      pairs.length * 2,
    );
  });

  it("puts every sale, top-up and scan on the day the day rule gives", async () => {
    for (const table of ["sales", "topups", "scans"]) {
      const wrong = await count(`select count(*)::int as n from ${table} r where r.day_id <> coalesce(
          (select d.id from days d where r.occurred_at >= d.starts_at and r.occurred_at < d.ends_at),
          (select d.id from days d where d.starts_at <= r.occurred_at order by d.starts_at desc limit 1),
          (select d.id from days d order by d.starts_at limit 1))`);
      expect(wrong, table).toBe(0);
    }
    // Morning app top-ups fall between two windows: the day rule gives them the previous day.
    expect(
      await count(`select count(*)::int as n from topups r join days d on d.id = r.day_id
        where r.occurred_at >= d.ends_at and r.occurred_at < d.ends_at + interval '6 hours'`),
    ).toBeGreaterThan(0);
    // Sales happen inside day windows, only on the days already started.
    expect(
      await count(`select count(*)::int as n from sales s join days d on d.id = s.day_id
        where not (s.occurred_at >= d.starts_at and s.occurred_at < d.ends_at)`),
    ).toBe(0);
    const perDay = await db.query<{ date: string; n: number }>(
      `select to_char(d.date, 'YYYY-MM-DD') as date, count(s.id)::int as n
         from days d left join sales s on s.day_id = d.id group by d.date order by d.date`,
    );
    expect(perDay.map((d) => d.n > 0)).toEqual([true, true, true, false]);
  });

  it("keeps the money identities of every sale", async () => {
    const sales = await db.query<{
      id: string;
      status: string;
      payment_method: string;
      total: number;
      total_base: number;
      total_tax: number;
      promo_spent: number;
      balance_spent: number;
      device_id: string;
      items: {
        product_id: string;
        name: string;
        quantity: number;
        unit_price: number;
        charged_amount: number;
        included_quantity: number;
      }[];
      tax_breakdown: { tax_type: string; rate: number; base: number; amount: number }[];
    }>("select * from sales");
    const products = new Map(DEMO_PRODUCTS.map((p) => [p.id, p]));
    const devices = new Set(DEMO_STANDS.map((s) => s.deviceId));
    let included = 0;
    for (const s of sales) {
      expect(s.items.length).toBeGreaterThanOrEqual(1);
      expect(s.items.length).toBeLessThanOrEqual(4);
      expect(devices.has(s.device_id)).toBe(true);
      const gross = new Map<number, number>();
      let sum = 0;
      for (const item of s.items) {
        const p = products.get(item.product_id);
        expect(p, item.product_id).toBeDefined();
        expect(item.unit_price).toBe(p?.unitPrice);
        expect(item.name).toBe(p?.name);
        expect(item.included_quantity).toBeLessThanOrEqual(item.quantity);
        expect(item.charged_amount).toBe((item.quantity - item.included_quantity) * item.unit_price);
        if (item.included_quantity > 0) included++;
        sum += item.charged_amount;
        const rate = p?.taxRate ?? -1;
        gross.set(rate, (gross.get(rate) ?? 0) + item.charged_amount);
      }
      expect(s.total).toBe(sum);
      expect(s.total).toBe(s.total_base + s.total_tax);
      let base = 0;
      let tax = 0;
      for (const b of s.tax_breakdown) {
        const g = gross.get(b.rate) ?? 0;
        expect(b.tax_type).toBe("VAT");
        expect(b.base).toBe(Math.round((g * 100) / (100 + b.rate)));
        expect(b.amount).toBe(g - b.base);
        base += b.base;
        tax += b.amount;
      }
      expect(base).toBe(s.total_base);
      expect(tax).toBe(s.total_tax);
      if (s.status === "completed" && s.payment_method === "wristband") {
        expect(s.promo_spent + s.balance_spent).toBe(s.total);
        expect(s.promo_spent).toBeGreaterThanOrEqual(0);
      } else {
        expect([s.promo_spent, s.balance_spent]).toEqual([0, 0]);
      }
    }
    expect(included).toBeGreaterThan(0);
    const mix = await db.query<{ key: string; n: number }>(
      "select status || '/' || payment_method as key, count(*)::int as n from sales group by 1",
    );
    const keys = mix.map((m) => m.key);
    for (const k of ["completed/wristband", "completed/card", "completed/cash"]) expect(keys).toContain(k);
    expect(keys.some((k) => k.startsWith("cancelled/"))).toBe(true);
    expect(keys.some((k) => k.startsWith("pending/"))).toBe(true);
  });

  it("satisfies the ledger identity for every wristband", async () => {
    const broken = await db.query(`
      select w.id, w.balance, w.promo_balance, coalesce(t.paid, 0) - coalesce(s.bal, 0) as expected_balance,
             coalesce(t.promo, 0) - coalesce(s.promo, 0) as expected_promo
        from wristbands w
        left join (select wristband_id,
                          sum(case when payment_method = 'promo' then 0
                                   when direction = 'topup' then amount else -amount end) as paid,
                          sum(case when payment_method = 'promo' then amount else 0 end) as promo
                     from topups where status = 'completed' group by wristband_id) t on t.wristband_id = w.id
        left join (select wristband_id, sum(balance_spent) as bal, sum(promo_spent) as promo
                     from sales where status = 'completed' group by wristband_id) s on s.wristband_id = w.id
       where w.balance <> coalesce(t.paid, 0) - coalesce(s.bal, 0)
          or w.promo_balance <> coalesce(t.promo, 0) - coalesce(s.promo, 0)`);
    expect(broken).toEqual([]);
    expect(await count("select count(*)::int as n from wristbands where balance < 0")).toBeGreaterThan(0);
    expect(await count("select count(*)::int as n from wristbands where promo_balance < 0")).toBe(0);
    expect(
      await count("select count(*)::int as n from wristbands where status = 'released' and balance <> 0"),
    ).toBe(0);
    expect(
      await count(
        "select count(*)::int as n from sales where payment_method <> 'wristband' and status = 'completed'",
      ),
    ).toBeGreaterThan(0);
  });

  it("replays every wristband chronologically: balances match and only offline sales overdraw", async () => {
    type Move = { kind: "topup" | "sale"; at: number; created: number; row: Record<string, unknown> };
    const moves = new Map<string, Move[]>();
    const add = (w: string, m: Move) => {
      const list = moves.get(w) ?? [];
      list.push(m);
      moves.set(w, list);
    };
    for (const row of await db.query<Record<string, unknown>>("select * from topups")) {
      add(row.wristband_id as string, {
        kind: "topup",
        at: Date.parse(row.occurred_at as string),
        created: Date.parse(row.created_at as string),
        row,
      });
    }
    for (const row of await db.query<Record<string, unknown>>("select * from sales")) {
      add(row.wristband_id as string, {
        kind: "sale",
        at: Date.parse(row.occurred_at as string),
        created: Date.parse(row.created_at as string),
        row,
      });
    }
    const wristbands = await db.query<{
      id: string;
      balance: number;
      promo_balance: number;
      created_at: string;
    }>("select id, balance, promo_balance, created_at from wristbands");
    let overdrawnOffline = 0;
    let topupOntoNegative = 0;
    for (const w of wristbands) {
      const list = (moves.get(w.id) ?? []).sort(
        (a, b) => a.at - b.at || (a.kind === b.kind ? 0 : a.kind === "topup" ? -1 : 1),
      );
      let balance = 0;
      let promo = 0;
      for (const m of list) {
        expect(m.at).toBeGreaterThanOrEqual(new Date(w.created_at).getTime());
        const r = m.row;
        if (m.kind === "topup") {
          const isPromo = r.payment_method === "promo";
          const current = isPromo ? promo : balance;
          expect(r.previous_balance, `${r.id}`).toBe(current);
          if (r.status !== "completed") {
            expect(r.new_balance).toBe(current);
            continue;
          }
          const delta = r.direction === "topup" ? (r.amount as number) : -(r.amount as number);
          if (r.direction === "withdraw") expect(r.amount as number).toBeLessThanOrEqual(current);
          if (!isPromo && r.direction === "topup" && current < 0) topupOntoNegative++;
          expect(r.new_balance).toBe(current + delta);
          if (isPromo) promo += delta;
          else balance += delta;
        } else if (r.status === "completed" && r.payment_method === "wristband") {
          const total = r.total as number;
          const offline = m.created - m.at >= HOUR;
          if (!offline) expect(promo + balance, `${r.id}`).toBeGreaterThanOrEqual(total);
          expect(r.promo_spent).toBe(Math.min(promo, total));
          promo -= r.promo_spent as number;
          balance -= r.balance_spent as number;
          if (balance < 0) {
            expect(offline, `${r.id} overdraws online`).toBe(true);
            overdrawnOffline++;
          }
        }
      }
      expect([balance, promo], w.id).toEqual([w.balance, w.promo_balance]);
    }
    expect(overdrawnOffline).toBeGreaterThan(0);
    expect(topupOntoNegative).toBeGreaterThan(0);
  });

  it("grants bonuses exactly as the bonus rules quote them, within the per-person cap", async () => {
    const rules = (
      await db.query<{
        id: string;
        name: string;
        valid_from: Date;
        valid_until: Date;
        tiers: BonusRule["tiers"];
      }>("select * from bonus_rules")
    ).map(
      (r): BonusRule => ({ ...r, valid_from: new Date(r.valid_from), valid_until: new Date(r.valid_until) }),
    );
    expect(rules).toHaveLength(3);
    expect(rules.filter((r) => r.valid_from <= NOW && NOW < r.valid_until)).toHaveLength(2);
    expect(rules.filter((r) => r.valid_until <= NOW)).toHaveLength(1);
    const topups = await db.query<{
      id: string;
      person: string;
      wristband_id: string;
      nature: string;
      status: string;
      payment_method: string;
      direction: string;
      amount: number;
      bonus_rule_id: string | null;
      occurred_at: string;
      created_at: string;
    }>(
      `select p.*, coalesce(w.ticket_id, w.id) as person from topups p join wristbands w on w.id = p.wristband_id
        order by p.occurred_at, p.id`,
    );
    const granted = new Map<string, number>();
    const bonusByPaid = new Map<string, (typeof topups)[number]>();
    for (let i = 0; i < topups.length; i++) {
      const t = topups[i];
      if (t.nature !== "bonus") continue;
      expect(t.payment_method).toBe("promo");
      expect(t.direction).toBe("topup");
      expect(t.bonus_rule_id).not.toBeNull();
      // The bonus follows its paid top-up: same wristband, same instant, next id.
      const paid = topups.find(
        (p) =>
          p.nature === "paid" &&
          p.status === "completed" &&
          p.wristband_id === t.wristband_id &&
          new Date(p.occurred_at).getTime() === new Date(t.occurred_at).getTime(),
      );
      expect(paid, t.id).toBeDefined();
      if (paid) {
        expect(paid.id < t.id).toBe(true);
        expect(new Date(paid.created_at).getTime()).toBe(new Date(t.created_at).getTime());
        bonusByPaid.set(paid.id, t);
      }
    }
    let bonuses = 0;
    for (const t of topups) {
      if (t.nature !== "paid" || t.status !== "completed" || t.direction !== "topup") continue;
      const cap = remainingCap(DEMO_EVENT.bonusCapPerPerson, granted.get(t.person) ?? 0, []);
      const quote = quoteLine(validRules(rules, new Date(t.occurred_at)), t.amount, cap);
      const bonus = bonusByPaid.get(t.id);
      expect(bonus?.amount ?? 0, t.id).toBe(quote.bonus_amount);
      expect(bonus?.bonus_rule_id ?? null).toBe(quote.rule?.id ?? null);
      if (bonus) {
        bonuses++;
        granted.set(t.person, (granted.get(t.person) ?? 0) + bonus.amount);
      }
    }
    expect(bonuses).toBe(bonusByPaid.size);
    expect(bonuses).toBeGreaterThan(0);
    for (const total of granted.values()) expect(total).toBeLessThanOrEqual(DEMO_EVENT.bonusCapPerPerson);
    expect([...granted.values()].some((g) => g === DEMO_EVENT.bonusCapPerPerson)).toBe(true);
  });

  it("has courtesy only on crew wristbands, withdrawals at refund desks, and failed top-ups", async () => {
    expect(
      await count(`select count(*)::int as n from topups p join wristbands w on w.id = p.wristband_id
        join tickets t on t.id = w.ticket_id join ticket_types tt on tt.id = t.ticket_type_id
        where p.nature = 'courtesy' and p.payment_method = 'promo' and tt.name = 'Crew'`),
    ).toBeGreaterThan(0);
    expect(
      await count(`select count(*)::int as n from topups p left join wristbands w on w.id = p.wristband_id
        left join tickets t on t.id = w.ticket_id left join ticket_types tt on tt.id = t.ticket_type_id
        where p.nature = 'courtesy' and (tt.name is distinct from 'Crew' or p.payment_method <> 'promo')`),
    ).toBe(0);
    const withdrawals = await db.query<{ payment_method: string; nature: string; device_id: string }>(
      "select payment_method, nature, device_id from topups where direction = 'withdraw'",
    );
    expect(withdrawals.length).toBeGreaterThan(0);
    for (const w of withdrawals) {
      expect(["cash", "card"]).toContain(w.payment_method);
      expect(w.nature).toBe("paid");
      expect(w.device_id).toMatch(/^refund-0\d$/);
    }
    expect(await count("select count(*)::int as n from topups where status <> 'completed'")).toBeGreaterThan(
      0,
    );
    expect(
      await count(
        "select count(*)::int as n from topups where nature = 'paid' and direction = 'topup' and payment_method not in ('card', 'cash', 'online')",
      ),
    ).toBe(0);
  });

  it("logs a check-in per used ticket and access checks at the gates", async () => {
    expect(
      await count(`select count(*)::int as n from tickets t where t.status = 'used' and not exists
        (select 1 from scans s where s.kind = 'check_in' and s.ticket_code = t.code and s.wristband_id = t.wristband_id)
        and not exists (select 1 from wristbands w where w.ticket_id = t.id and w.status = 'pending_review')`),
    ).toBe(0);
    expect(
      await count(
        "select count(*)::int as n from scans where kind = 'check_in' and (not allowed or zone_id is not null)",
      ),
    ).toBe(0);
    const reasons = (
      await db.query<{ reason: string | null }>(
        "select distinct reason from scans where kind = 'access_check'",
      )
    ).map((r) => r.reason);
    for (const reason of [null, "zone_not_allowed", "unknown_code", "blocked", "lost"])
      expect(reasons).toContain(reason);
    expect(
      await count(`select count(*)::int as n from scans where kind = 'access_check'
        and (allowed <> (reason is null) or zone_id is null or code is null
             or (reason = 'unknown_code') <> (wristband_id is null))`),
    ).toBe(0);
    const gates = new Set(DEMO_GATES.map((g) => g.deviceId));
    for (const r of await db.query<{ device_id: string }>("select distinct device_id from scans")) {
      expect(gates.has(r.device_id)).toBe(true);
    }
    expect(
      await count("select count(*)::int as n from scans where kind = 'access_check'"),
    ).toBeGreaterThanOrEqual(400);
  });

  it("gives ids that are 24 hex characters and grow with created_at in every table", async () => {
    for (const table of TABLES) {
      expect(await count(`select count(*)::int as n from ${table} where id !~ '^[0-9a-f]{24}$'`), table).toBe(
        0,
      );
    }
    for (const table of ["event", "tickets", "wristbands", "sales", "topups", "scans"]) {
      const backwards = await count(
        `select count(*)::int as n from (select created_at, lag(created_at) over (order by id) as prev from ${table}) x
          where prev > created_at`,
      );
      expect(backwards, table).toBe(0);
    }
    // ids embed created_at's seconds.
    expect(
      await count(`select count(*)::int as n from sales
        where ('x' || substr(id, 1, 8))::bit(32)::bigint <> floor(extract(epoch from created_at))::bigint`),
    ).toBe(0);
  });

  it("has offline records that synchronised hours later, some after the night ended", async () => {
    const sales = await db.query<{
      offline: number;
      late: number;
      quick: number;
      total: number;
      slow: number;
    }>(
      `select count(*) filter (where s.created_at - s.occurred_at between interval '1 hour' and interval '6 hours')::int as offline,
              count(*) filter (where s.created_at >= d.ends_at)::int as late,
              count(*) filter (where s.created_at - s.occurred_at <= interval '20 seconds')::int as quick,
              count(*) filter (where s.created_at - s.occurred_at > interval '6 hours' or s.created_at < s.occurred_at)::int as slow,
              count(*)::int as total
         from sales s join days d on d.id = s.day_id`,
    );
    const s = sales[0];
    expect(s.offline / s.total).toBeGreaterThan(0.02);
    expect(s.offline / s.total).toBeLessThan(0.1);
    expect(s.late).toBeGreaterThan(0);
    expect(s.slow).toBe(0);
    expect(s.offline + s.quick).toBe(s.total);
    expect(
      await count(
        "select count(*)::int as n from topups where created_at - occurred_at >= interval '1 hour'",
      ),
    ).toBeGreaterThan(0);
    expect(await count("select count(*)::int as n from topups where created_at < occurred_at")).toBe(0);
  });

  it("puts nothing after now", async () => {
    const checks: [string, string][] = [
      ["sales", "greatest(occurred_at, created_at)"],
      ["topups", "greatest(occurred_at, created_at)"],
      ["scans", "greatest(occurred_at, created_at)"],
      ["tickets", "greatest(created_at, updated_at, checked_in_at)"],
      ["wristbands", "greatest(created_at, updated_at)"],
      ["event", "created_at"],
    ];
    for (const [table, expr] of checks) {
      expect(await count(`select count(*)::int as n from ${table} where ${expr} > $1`, [NOW]), table).toBe(0);
    }
  });

  it("is deterministic: the same seed and now give identical data, another seed does not", async () => {
    const again = await freshDb();
    const other = await freshDb();
    try {
      await seedDemo(again, OPTIONS);
      await seedDemo(other, { ...OPTIONS, random: OPTIONS.random + 1 });
      const reference = await dump(db);
      expect(await dump(again)).toBe(reference);
      expect(await dump(other)).not.toBe(reference);
    } finally {
      await again.close();
      await other.close();
    }
  });

  it("stores exactly the rows it stored before its sections were split into files", async () => {
    // sha256 of the dump of OPTIONS, recorded from the single-file seeder (commit 935177b), equal on
    // PGlite and PostgreSQL. A change meant to alter the demo data updates it, and says so.
    const hash = createHash("sha256")
      .update(await dump(db))
      .digest("hex");
    expect(hash).toBe("59c8e54568e58df298dc9b608320e1bda8420f8322d81b9cdcf72d7943b9341d");
  });
});

describe("seedDemo before today's window opens", () => {
  it("makes no sale today and nothing after now", async () => {
    const now = new Date("2025-11-20T07:00:00.000Z"); // 08:00 in Madrid
    const db = await freshDb();
    try {
      const summary = await seedDemo(db, { scale: 0.02, random: 1, now });
      expect(summary.tickets).toBeGreaterThanOrEqual(40);
      expect(summary.sales).toBeGreaterThanOrEqual(40);
      const perDay = await db.query<{ date: string; n: number }>(
        `select to_char(d.date, 'YYYY-MM-DD') as date, count(s.id)::int as n
           from days d left join sales s on s.day_id = d.id group by d.date order by d.date`,
      );
      expect(perDay).toEqual([
        { date: "2025-11-18", n: expect.any(Number) },
        { date: "2025-11-19", n: expect.any(Number) },
        { date: "2025-11-20", n: 0 },
        { date: "2025-11-21", n: 0 },
      ]);
      const [late] = await db.query<{ n: number }>(
        `select (select count(*) from sales where greatest(occurred_at, created_at) > $1)
              + (select count(*) from topups where greatest(occurred_at, created_at) > $1)
              + (select count(*) from scans where greatest(occurred_at, created_at) > $1)
              + (select count(*) from wristbands where updated_at > $1) as n`,
        [now],
      );
      expect(Number(late.n)).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe("buildDemo at scale 1", () => {
  it("makes about 50,000 sales and nothing after now, even in the last seconds before it", () => {
    const now = new Date("2025-07-12T20:15:00.000Z"); // 22:15 in Madrid, a busy hour
    const data = buildDemo({ scale: 1, random: 42, now });
    expect(data.summary.sales).toBeGreaterThan(49_000);
    expect(data.summary.tickets).toBe(5000);
    const t = now.getTime();
    let last = 0;
    for (let i = 0; i < data.sales.n; i++) {
      expect(data.sales.created[i]).toBeLessThanOrEqual(t);
      expect(data.sales.created[i]).toBeGreaterThanOrEqual(data.sales.occurred[i]);
      last = Math.max(last, data.sales.occurred[i]);
    }
    expect(t - last).toBeLessThan(60_000);
    for (const r of data.topups) expect(Math.max(r.occurred, r.created)).toBeLessThanOrEqual(t);
    for (const r of data.scans) expect(Math.max(r.occurred, r.created)).toBeLessThanOrEqual(t);
    for (const r of data.wristbands) expect(Math.max(r.createdAt, r.updatedAt)).toBeLessThanOrEqual(t);
    for (const r of data.tickets) expect(Math.max(r.createdAt, r.updatedAt)).toBeLessThanOrEqual(t);
  });
});

describe("buildDemo in another time zone", () => {
  it("runs its days 12:00–06:00 in that zone, so the same instant falls on another hour of today", () => {
    const now = new Date("2025-11-20T07:00:00.000Z"); // 08:00 in Madrid (before today opens), 03:00 at UTC−4
    const madrid = buildDemo({ scale: 0.02, random: 1, now });
    const west = buildDemo({ scale: 0.02, random: 1, now, timeZone: "Etc/GMT+4" });
    expect(west.eventRow.time_zone).toBe("Etc/GMT+4");
    // Today at UTC−4 is the 19th, opened at 12:00 local (16:00 UTC) and 15 hours old at `now`.
    expect(west.days[2].date).toBe("2025-11-19");
    expect(new Date(west.days[2].start).toISOString()).toBe("2025-11-19T16:00:00.000Z");
    expect(new Date(west.days[2].end).toISOString()).toBe("2025-11-20T10:00:00.000Z");
    const salesOn = (data: typeof west, day: number) => {
      let n = 0;
      const { start, end } = data.days[day];
      for (let i = 0; i < data.sales.n; i++)
        if (data.sales.occurred[i] >= start && data.sales.occurred[i] < end) n++;
      return n;
    };
    expect(salesOn(madrid, 2)).toBe(0);
    expect(salesOn(west, 2)).toBeGreaterThan(salesOn(west, 1) * 0.7);
  });
});
