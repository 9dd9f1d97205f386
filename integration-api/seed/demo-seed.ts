import { DateTime } from "luxon";
import { IdGenerator } from "../ids";
import { type BonusRule, quoteLine, remainingCap, validRules } from "../services/bonus-rules";
import type { Db, Queryable } from "../store/db";
import {
  DEMO_BONUS_RULES,
  DEMO_COURTESY_DEVICE,
  DEMO_CREW_COURTESY,
  DEMO_EVENT,
  DEMO_GATES,
  DEMO_PRODUCTS,
  DEMO_REFUND_DEVICES,
  DEMO_STANDS,
  DEMO_TICKET_TYPES,
  DEMO_TOPUP_DEVICES,
  DEMO_TOPUP_PRESETS,
  DEMO_ZONES,
  type DemoStand,
  type StandKind,
  type TicketTypeKey,
  type ZoneKey,
} from "./demo-catalog";
import { Random, WeightedTable } from "./random";

/**
 * Demo event seeder: a four-day festival around `now` (two past days, today, one future day) with
 * tickets, wristbands, sales, top-ups and scans. Everything comes from one seeded generator, so the
 * same `random` and `now` give identical data. Balances are simulated chronologically per wristband,
 * so every wristband satisfies the ledger identity:
 *   balance       = Σ completed non-promo top-ups (topup +, withdraw −) − Σ completed sales balance_spent
 *   promo_balance = Σ completed promo top-ups − Σ completed sales promo_spent
 */

export interface SeedOptions {
  /** Multiplies tickets, wristbands, sales, top-ups and scans (1 ≈ 50,000 sales). Fractions allowed. */
  scale: number;
  /** Seed of the pseudo-random generator. */
  random: number;
  /** The moment the demo is built around (default: the current time). Nothing happens after it. */
  now?: Date;
}

export interface SeedSummary {
  tickets: number;
  wristbands: number;
  sales: number;
  topups: number;
  scans: number;
  days: number;
}

export interface DemoDay {
  /** Local date, YYYY-MM-DD. */
  date: string;
  /** "Day 1 · Thu 19 Nov". */
  name: string;
  /** 12:00 local on `date`. */
  startsAt: Date;
  /** 06:00 local the next morning. */
  endsAt: Date;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const INSERT_CHUNK = 2000;

/**
 * The four days of the demo event: two past, today, one future. Today is the local date of `now`,
 * or the previous date before 06:00 local (so `now` is inside today's window or before it starts).
 * Each day runs from 12:00 local to 06:00 local the next morning, DST included.
 */
export function demoDays(now: Date, timeZone: string = DEMO_EVENT.timeZone): DemoDay[] {
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  if (!local.isValid) throw new Error(`Invalid time zone or date: ${timeZone}`);
  const today = (local.hour < 6 ? local.minus({ days: 1 }) : local).startOf("day");
  return [-2, -1, 0, 1].map((offset, i) => {
    const date = today.plus({ days: offset });
    const next = date.plus({ days: 1 });
    const start = DateTime.fromObject(
      { year: date.year, month: date.month, day: date.day, hour: 12 },
      { zone: timeZone },
    );
    const end = DateTime.fromObject(
      { year: next.year, month: next.month, day: next.day, hour: 6 },
      { zone: timeZone },
    );
    return {
      date: date.toFormat("yyyy-MM-dd"),
      name: `Day ${i + 1} · ${date.setLocale("en-US").toFormat("ccc d LLL")}`,
      startsAt: start.toJSDate(),
      endsAt: end.toJSDate(),
    };
  });
}

/** Seeds the demo event into an empty, migrated store, in one transaction. */
export async function seedDemo(db: Db, options: SeedOptions): Promise<SeedSummary> {
  const data = buildDemo(options);
  await db.transaction((tx) => writeDemo(tx, data));
  return data.summary;
}

// ---------------------------------------------------------------------------------------------
// Profiles (relative activity by local hour; hours 06–11 are outside the day windows).

// biome-ignore format: a table
const SALES_PROFILE = [
  2.9, 2.6, 2.1, 1.5, 0.9, 0.4, 0, 0, 0, 0, 0, 0,
  0.25, 0.45, 0.6, 0.7, 0.8, 0.95, 1.15, 1.4, 1.7, 2.1, 2.5, 2.8,
];
// biome-ignore format: a table
const CHECKIN_PROFILE = [
  0.6, 0.3, 0.15, 0.08, 0.04, 0.02, 0, 0, 0, 0, 0, 0,
  1.0, 1.4, 1.6, 1.8, 2.2, 2.6, 2.8, 2.6, 2.2, 1.8, 1.4, 1.0,
];
// biome-ignore format: a table
const ACCESS_PROFILE = [
  2.0, 1.8, 1.5, 1.0, 0.6, 0.3, 0, 0, 0, 0, 0, 0,
  0.6, 0.8, 1.0, 1.1, 1.3, 1.5, 1.8, 2.0, 2.2, 2.4, 2.4, 2.2,
];

// ---------------------------------------------------------------------------------------------
// People.

// biome-ignore format: a list
const FIRST_NAMES = [
  "Lucía", "Hugo", "Martina", "Mateo", "Sofía", "Leo", "Julia", "Daniel", "Paula", "Pablo", "Valeria",
  "Álvaro", "Carmen", "Manuel", "Alba", "Javier", "Noa", "Adrián", "Irene", "Diego", "Elena", "Marcos",
  "Laura", "Sergio", "Claudia", "Jorge", "Nerea", "Iker", "Ainhoa", "Marc", "Núria", "Pau", "Emma",
  "Liam", "Olivia", "Noah", "Chloé", "Louis", "Giulia", "Luca", "Anna", "Jonas", "Maja", "Finn",
  "Sara", "Tom", "Inês", "João", "Zoe", "Oscar",
];
// biome-ignore format: a list
const LAST_NAMES = [
  "García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez", "Gómez",
  "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso",
  "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Serrano", "Molina", "Ortega", "Castro",
  "Rubio", "Puig", "Ferrer", "Etxeberria", "Smith", "Müller", "Dubois", "Rossi", "Jansen", "Silva",
  "Novak", "Nielsen", "Kowalski", "O'Brien", "Costa", "Berg",
];
const EMAIL_DOMAINS = ["example.com", "example.org", "example.net", "mail.example.com"];
const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// ---------------------------------------------------------------------------------------------
// In-memory model.

type TicketStatus = "active" | "used" | "inactive";
type WristbandStatus = "active" | "blocked" | "lost" | "released" | "pending_review";
type TopupMethod = "card" | "cash" | "online" | "promo";

interface Day {
  index: number;
  id: string;
  date: string;
  name: string;
  start: number;
  end: number;
  /** Start of each hour slot of the window and its local hour (DST-correct). */
  slotStarts: number[];
  slotHours: number[];
}

interface Ticket {
  id: string;
  code: string;
  type: number;
  status: TicketStatus;
  name: string;
  email: string;
  docType: string | null;
  docNumber: string | null;
  birthDate: string | null;
  days: number[];
  extraZones: number[];
  wristband: number;
  checkedInAt: number | null;
  createdAt: number;
  updatedAt: number;
}

interface Wristband {
  id: string;
  nfc: string;
  uhf: string;
  status: WristbandStatus;
  /** Index of the ticket, or -1 for an anonymous wristband. */
  ticket: number;
  /** Index of the person (ticket, or the wristband itself when anonymous), for the bonus cap. */
  person: number;
  zones: number[];
  zoneMask: number;
  dayMask: number;
  /** Day index of a day-ticket wristband, else -1. */
  singleDay: number;
  createdAt: number;
  /** When the final status was reached (Infinity while active). */
  statusAt: number;
  /** No sale on or after this instant. */
  saleUntil: number;
  /** No balance movement on or after this instant (except the release withdrawal itself). */
  activeUntil: number;
  propensity: number;
  vip: boolean;
  crew: boolean;
  /** Made to go negative with an offline sale: no voluntary top-ups, withdrawals or courtesy. */
  flagged: boolean;
  pair: boolean;
  balance: number;
  promo: number;
  updatedAt: number;
}

interface Topup {
  id: string;
  w: number;
  direction: "topup" | "withdraw";
  amount: number;
  prev: number;
  next: number;
  method: TopupMethod;
  nature: "paid" | "bonus" | "courtesy";
  status: "completed" | "pending" | "failed";
  ruleId: string | null;
  device: string | null;
  occurred: number;
  created: number;
}

interface Scan {
  id: string;
  kind: "check_in" | "access_check";
  allowed: boolean;
  reason: string | null;
  code: string | null;
  ticketCode: string | null;
  w: number;
  zone: number;
  device: string | null;
  occurred: number;
  created: number;
}

/** Sales, struct-of-arrays: a million of them must fit comfortably in memory. */
interface Sales {
  n: number;
  occurred: Float64Array;
  created: Float64Array;
  w: Int32Array;
  stand: Uint8Array;
  /** 0 completed, 1 cancelled, 2 pending. */
  status: Uint8Array;
  /** 0 wristband, 1 card, 2 cash. */
  method: Uint8Array;
  lines: Uint8Array;
  /** MAX_LINES slots per sale. */
  product: Uint16Array;
  qty: Uint8Array;
  incl: Uint8Array;
  /** 1: an offline sale allowed to push the balance below zero. */
  allowNegative: Uint8Array;
  promoSpent: Int32Array;
  balanceSpent: Int32Array;
}

const MAX_LINES = 4;
const SALE_STATUS = ["completed", "cancelled", "pending"] as const;
const SALE_METHOD = ["wristband", "card", "cash"] as const;

/** The demo in memory, before it is written (exposed for tests and tools). */
export interface DemoData {
  now: number;
  eventRow: Record<string, unknown>;
  days: Day[];
  zoneRows: { id: string; name: string }[];
  typeRows: { id: string; name: string; zone_ids: string[] }[];
  ruleRows: { id: string; name: string; valid_from: string; valid_until: string; tiers: unknown }[];
  tickets: Ticket[];
  wristbands: Wristband[];
  sales: Sales;
  salesOrder: Uint32Array;
  salesIds: string[];
  topups: Topup[];
  scans: Scan[];
  summary: SeedSummary;
}

// ---------------------------------------------------------------------------------------------

const ZONE_INDEX = new Map<ZoneKey, number>(DEMO_ZONES.map((z, i) => [z.key, i]));
const zoneIndex = (key: ZoneKey): number => ZONE_INDEX.get(key)!;
const TYPE_INDEX = new Map<TicketTypeKey, number>(DEMO_TICKET_TYPES.map((t, i) => [t.key, i]));
const PRODUCT_INDEX = new Map<string, number>(DEMO_PRODUCTS.map((p, i) => [p.id, i]));

interface StandModel {
  stand: DemoStand;
  products: WeightedTable<number>;
  lines: WeightedTable<number>;
  qty: WeightedTable<number>;
}

/** Weights of 1, 2, 3, 4 lines per sale and of a quantity of 1, 2, 3, 4 per line, by kind of stand. */
const LINES_BY_KIND: Record<StandKind, number[]> = {
  bar: [84, 13, 3, 0],
  food: [68, 26, 6, 0],
  merch: [85, 15, 0, 0],
};
const QTY_BY_KIND: Record<StandKind, number[]> = {
  bar: [88, 10, 2, 0],
  food: [90, 9, 1, 0],
  merch: [95, 5, 0, 0],
};
/** Weights of the top-up presets (20, 30, 50, 100 €). */
const PRESET_WEIGHTS = [6, 10, 40, 44];
const oneToFour = (weights: number[]) =>
  new WeightedTable(weights.flatMap((w, i) => (w > 0 ? [[i + 1, w] as const] : [])));

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The day of a record: the day whose [start, end) holds t; else the last day started before t;
 * else the first day. `days` are in start order.
 */
function dayIndexAt(days: readonly { start: number; end: number }[], t: number): number {
  for (let i = 0; i < days.length; i++) if (t >= days[i].start && t < days[i].end) return i;
  for (let i = days.length - 1; i >= 0; i--) if (days[i].start <= t) return i;
  return 0;
}

/** How many values of an ascending array are <= x (binary search). */
function countAtOrBefore(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function buildDemo(options: SeedOptions): DemoData {
  const { scale } = options;
  if (!(Number.isFinite(scale) && scale > 0)) throw new Error("scale must be a positive number");
  if (!Number.isInteger(options.random)) throw new Error("random must be an integer");
  const now = Math.floor((options.now ?? new Date()).getTime());
  const rng = new Random(options.random);

  // One id generator per table, created in a fixed order.
  const gen = {
    event: new IdGenerator(rng.next),
    days: new IdGenerator(rng.next),
    zones: new IdGenerator(rng.next),
    ticketTypes: new IdGenerator(rng.next),
    bonusRules: new IdGenerator(rng.next),
    tickets: new IdGenerator(rng.next),
    wristbands: new IdGenerator(rng.next),
    sales: new IdGenerator(rng.next),
    topups: new IdGenerator(rng.next),
    scans: new IdGenerator(rng.next),
  };
  // Independent streams per section, so changing one section leaves the others' data alone.
  const rTickets = rng.fork();
  const rWristbands = rng.fork();
  const rSales = rng.fork();
  const rMoney = rng.fork();
  const rScans = rng.fork();

  // ---- Event, days, zones, ticket types, bonus rules.
  const timeZone = DEMO_EVENT.timeZone;
  const demo = demoDays(new Date(now), timeZone);
  const firstStart = demo[0].startsAt.getTime();
  const lastEnd = demo[demo.length - 1].endsAt.getTime();
  const eventCreated = firstStart - 120 * DAY;
  const eventRow = {
    id: gen.event.next(new Date(eventCreated)),
    name: `${DEMO_EVENT.name} ${demo[0].date.slice(0, 4)}`,
    currency: DEMO_EVENT.currency,
    time_zone: timeZone,
    bonus_cap_per_person: DEMO_EVENT.bonusCapPerPerson,
    created_at: iso(eventCreated),
  };
  const days: Day[] = demo.map((d, index) => {
    const start = d.startsAt.getTime();
    const end = d.endsAt.getTime();
    const slotStarts: number[] = [];
    const slotHours: number[] = [];
    for (let s = start; s < end; s += HOUR) {
      slotStarts.push(s);
      slotHours.push(DateTime.fromMillis(s, { zone: timeZone }).hour);
    }
    return {
      index,
      id: gen.days.next(new Date(eventCreated)),
      date: d.date,
      name: d.name,
      start,
      end,
      slotStarts,
      slotHours,
    };
  });
  const dayIndexFor = (t: number): number => dayIndexAt(days, t);
  const startedDays = days.filter((d) => d.start < now);
  const pastDays = days.filter((d) => d.end <= now);
  const allDaysMask = (1 << days.length) - 1;

  const zoneRows = DEMO_ZONES.map((z) => ({ id: gen.zones.next(new Date(eventCreated)), name: z.name }));
  const typeRows = DEMO_TICKET_TYPES.map((t) => ({
    id: gen.ticketTypes.next(new Date(eventCreated)),
    name: t.name,
    zone_ids: t.zones.map((k) => zoneRows[zoneIndex(k)].id),
  }));

  const ruleWindows = DEMO_BONUS_RULES.map((r) => {
    if (r.window === "event")
      return { from: firstStart - 30 * DAY, until: lastEnd, created: eventCreated + DAY };
    if (r.window === "around_now")
      return { from: now - 2 * HOUR, until: now + 2 * HOUR, created: now - 3 * HOUR };
    return { from: firstStart, until: firstStart + 5 * HOUR, created: eventCreated + DAY };
  });
  const ruleOrder = DEMO_BONUS_RULES.map((_, i) => i).sort(
    (a, b) => ruleWindows[a].created - ruleWindows[b].created,
  );
  const ruleIds: string[] = [];
  for (const i of ruleOrder) ruleIds[i] = gen.bonusRules.next(new Date(ruleWindows[i].created));
  const bonusRules: BonusRule[] = DEMO_BONUS_RULES.map((r, i) => ({
    id: ruleIds[i],
    name: r.name,
    valid_from: new Date(ruleWindows[i].from),
    valid_until: new Date(ruleWindows[i].until),
    tiers: r.tiers.map((t) => ({ min_amount: t.min_amount, bonus_amount: t.bonus_amount })),
  }));
  const ruleRows = ruleOrder.map((i) => ({
    id: bonusRules[i].id,
    name: bonusRules[i].name,
    valid_from: iso(ruleWindows[i].from),
    valid_until: iso(ruleWindows[i].until),
    tiers: bonusRules[i].tiers,
  }));

  /** A time inside day d's window and [lo, hi), following an hourly profile; null when empty. */
  const sampleIn = (r: Random, d: Day, profile: readonly number[], lo: number, hi: number): number | null => {
    const a0 = Math.max(lo, d.start);
    const b0 = Math.min(hi, d.end);
    if (b0 <= a0) return null;
    const from: number[] = [];
    const to: number[] = [];
    const weights: number[] = [];
    for (let k = 0; k < d.slotStarts.length; k++) {
      const s = d.slotStarts[k];
      const a = Math.max(s, a0);
      const b = Math.min(s + HOUR, d.end, b0);
      if (b <= a) continue;
      from.push(a);
      to.push(b);
      weights.push(Math.max(profile[d.slotHours[k]], 0.01) * ((b - a) / HOUR));
    }
    if (weights.length === 0) return null;
    const slots = from.map((_, i) => i);
    const k = r.weighted(slots, weights);
    return Math.floor(from[k] + r.next() * (to[k] - from[k]));
  };

  // ---- Tickets.
  const nTickets = Math.max(40, Math.round(5000 * scale));
  const typeTable = new WeightedTable(DEMO_TICKET_TYPES.map((t, i) => [i, t.weight] as const));
  const statusTable = new WeightedTable<TicketStatus>([
    ["used", 55],
    ["active", 40],
    ["inactive", 5],
  ]);
  const codes = new Set<string>();
  const tickets: Ticket[] = [];
  const salesStart = Math.min(firstStart, now);
  for (let i = 0; i < nTickets; i++) {
    const r = rTickets;
    const type = typeTable.pick(r);
    const tt = DEMO_TICKET_TYPES[type];
    let status = statusTable.pick(r);
    let ticketDays: number[];
    if (tt.allDays) ticketDays = days.map((d) => d.index);
    else if (status === "used") ticketDays = [r.pick(startedDays).index];
    else ticketDays = [r.weighted(days, [20, 25, 25, 30]).index];
    if (status === "used" && !ticketDays.some((d) => days[d].start < now)) status = "active";
    let code: string;
    do code = `TK-${r.alnumUpper(8)}`;
    while (codes.has(code));
    codes.add(code);
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const second = r.chance(0.4) ? ` ${r.pick(LAST_NAMES)}` : "";
    const name = `${first} ${last}${second}`;
    const emailLocal = `${first}.${last}${r.chance(0.5) ? r.int(1, 99) : ""}`
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9.]/g, "")
      .toLowerCase();
    let docType: string | null = null;
    let docNumber: string | null = null;
    if (r.chance(0.65)) {
      if (r.chance(0.75)) {
        const n = r.int(10_000_000, 99_999_999);
        docType = "dni";
        docNumber = `${n}${DNI_LETTERS[n % 23]}`;
      } else {
        docType = "passport";
        docNumber = `${LETTERS[r.int(0, 25)]}${LETTERS[r.int(0, 25)]}${LETTERS[r.int(0, 25)]}${r.int(100000, 999999)}`;
      }
    }
    const birthDate = r.chance(0.85)
      ? iso(firstStart - r.int(18 * 365, 65 * 365) * DAY - r.int(0, DAY)).slice(0, 10)
      : null;
    const extraZones: number[] = [];
    if (r.chance(0.03)) {
      const candidates = DEMO_ZONES.map((_, z) => z).filter(
        (z) => !tt.zones.includes(DEMO_ZONES[z].key) && z !== 0,
      );
      extraZones.push(r.pick(candidates));
    }
    const createdAt = salesStart - Math.floor(r.float(2 * DAY, 120 * DAY));
    let updatedAt = createdAt;
    let checkedInAt: number | null = null;
    if (status === "used") {
      const dayChoices = ticketDays.filter((d) => days[d].start < now);
      const d = tt.allDays
        ? r.weighted(
            dayChoices,
            dayChoices.map((x) => [60, 25, 15, 5][x]),
          )
        : dayChoices[0];
      checkedInAt = sampleIn(r, days[d], CHECKIN_PROFILE, days[d].start, now);
      if (checkedInAt === null) {
        status = "active";
      } else updatedAt = checkedInAt;
    }
    if (status === "inactive")
      updatedAt = createdAt + Math.floor(r.next() * (Math.min(firstStart, now) - createdAt));
    else if (status === "active" && r.chance(0.08))
      updatedAt = createdAt + Math.floor(r.next() * (salesStart - createdAt));
    tickets.push({
      id: "",
      code,
      type,
      status,
      name,
      email: `${emailLocal}@${r.pick(EMAIL_DOMAINS)}`,
      docType,
      docNumber,
      birthDate,
      days: ticketDays,
      extraZones,
      wristband: -1,
      checkedInAt,
      createdAt,
      updatedAt,
    });
  }

  // ---- Wristbands.
  const nfcs = new Set<string>();
  const uhfs = new Set<string>();
  const newNfc = (r: Random): string => {
    let c: string;
    do c = `04${r.hex(12)}`.toUpperCase();
    while (nfcs.has(c));
    nfcs.add(c);
    return c;
  };
  const newUhf = (r: Random): string => {
    let c: string;
    do c = `E2801160${r.hex(16)}`.toUpperCase();
    while (uhfs.has(c));
    uhfs.add(c);
    return c;
  };
  const wristbands: Wristband[] = [];
  const vipType = TYPE_INDEX.get("vip")!;
  const crewType = TYPE_INDEX.get("crew")!;
  const makeWristband = (r: Random, ticket: number, createdAt: number): Wristband => {
    const t = ticket >= 0 ? tickets[ticket] : null;
    const zones = t
      ? [...new Set([...DEMO_TICKET_TYPES[t.type].zones.map(zoneIndex), ...t.extraZones])].sort(
          (a, b) => a - b,
        )
      : [zoneIndex("general")];
    const dayMask = t ? t.days.reduce((m, d) => m | (1 << d), 0) : allDaysMask;
    const singleDay = t && !DEMO_TICKET_TYPES[t.type].allDays ? t.days[0] : -1;
    const activeUntil = singleDay >= 0 ? Math.min(now, days[singleDay].end) : now;
    return {
      id: "",
      nfc: newNfc(r),
      uhf: newUhf(r),
      status: "active",
      ticket,
      person: ticket >= 0 ? ticket : tickets.length + wristbands.length,
      zones,
      zoneMask: zones.reduce((m, z) => m | (1 << z), 0),
      dayMask,
      singleDay,
      createdAt,
      statusAt: Number.POSITIVE_INFINITY,
      saleUntil: activeUntil,
      activeUntil,
      propensity: r.float(0.15, 1),
      vip: t?.type === vipType,
      crew: t?.type === crewType,
      flagged: false,
      pair: false,
      balance: 0,
      promo: 0,
      updatedAt: createdAt,
    };
  };
  const checkInWristband = new Int32Array(tickets.length).fill(-1);
  tickets.forEach((t, i) => {
    if (t.status !== "used" || t.checkedInAt === null) return;
    t.wristband = wristbands.length;
    checkInWristband[i] = wristbands.length;
    wristbands.push(makeWristband(rWristbands, i, t.checkedInAt));
  });
  const ticketWristbands = wristbands.length;

  // Pending-review pairs: a second wristband accredited the same ticket shortly after the first.
  const nPairs = Math.max(2, Math.round(10 * Math.min(scale, 1)));
  const pairCandidates = rWristbands.shuffle(
    wristbands
      .map((_, i) => i)
      .filter(
        (i) => wristbands[i].singleDay < 0 && !wristbands[i].crew && wristbands[i].createdAt < now - 4 * HOUR,
      ),
  );
  const pairSecondCheckIns: { first: number; second: number; at: number; synced: number }[] = [];
  for (const a of pairCandidates) {
    if (pairSecondCheckIns.length >= nPairs) break;
    const wa = wristbands[a];
    const d = days[dayIndexFor(wa.createdAt)];
    const t2 = wa.createdAt + Math.floor(rWristbands.float(10 * MINUTE, 120 * MINUTE));
    const review = t2 + Math.floor(rWristbands.float(30 * MINUTE, 90 * MINUTE));
    if (review >= Math.min(d.end, now)) continue;
    const b = wristbands.length;
    const wb = makeWristband(rWristbands, wa.ticket, t2);
    wristbands.push(wb);
    for (const w of [wa, wb]) {
      w.pair = true;
      w.status = "pending_review";
      w.statusAt = review;
      w.activeUntil = review;
      w.saleUntil = review - 10 * MINUTE;
    }
    const ticket = tickets[wa.ticket];
    ticket.updatedAt = review;
    if (rWristbands.chance(0.5)) ticket.wristband = b;
    pairSecondCheckIns.push({ first: a, second: b, at: t2, synced: review });
  }

  // Anonymous wristbands (~5% of all), bought at a top-up desk with credit on them.
  const nAnonymous = Math.max(3, Math.round((ticketWristbands * 0.05) / 0.95));
  for (let i = 0; i < nAnonymous; i++) {
    const d = rWristbands.pick(startedDays);
    const at = sampleIn(rWristbands, d, CHECKIN_PROFILE, d.start, now);
    if (at === null) continue;
    wristbands.push(makeWristband(rWristbands, -1, at));
  }

  // Final statuses: a few blocked, lost and released (a guaranteed minimum of each).
  const others = rWristbands.shuffle(wristbands.map((_, i) => i).filter((i) => !wristbands[i].pair));
  const nReleased = Math.max(2, Math.round(0.06 * others.length));
  const nBlocked = Math.max(2, Math.round(0.015 * others.length));
  const nLost = Math.max(2, Math.round(0.02 * others.length));
  const setStatus = (w: Wristband, status: WristbandStatus, at: number) => {
    w.status = status;
    w.statusAt = at;
    w.activeUntil = Math.min(w.activeUntil, at);
    w.saleUntil = Math.min(w.saleUntil, at);
  };
  /** The release time of a wristband: near the end of the first past night it lived through, or null. */
  const releaseTime = (w: Wristband): number | null => {
    for (const d of pastDays) {
      if (w.singleDay >= 0 && d.index !== w.singleDay) continue;
      if (w.createdAt >= d.end - 45 * MINUTE) continue;
      const latest = Math.min(150 * MINUTE, d.end - w.createdAt - 30 * MINUTE);
      return d.end - Math.floor(rWristbands.float(5 * MINUTE, latest));
    }
    return null;
  };
  let released = 0;
  for (const pass of [0, 1]) {
    for (const i of others) {
      const w = wristbands[i];
      if (released >= nReleased) break;
      if (w.status !== "active" || (pass === 0 && w.singleDay < 0 && w.ticket >= 0)) continue;
      const at = releaseTime(w);
      if (at === null) continue;
      setStatus(w, "released", at);
      released++;
    }
  }
  for (const [status, count] of [
    ["blocked", nBlocked],
    ["lost", nLost],
  ] as const) {
    let done = 0;
    for (const i of others) {
      if (done >= count) break;
      const w = wristbands[i];
      const until = w.activeUntil;
      if (w.status !== "active" || until - w.createdAt < 45 * MINUTE) continue;
      setStatus(w, status, w.createdAt + Math.floor(rWristbands.float(30 * MINUTE, until - w.createdAt)));
      done++;
    }
  }

  // ---- Sales: times first (hourly profile inside the day windows, up to now), then who and what.
  const nSalesTarget = Math.max(60, Math.round(50000 * scale));
  const slotEntries: [{ start: number; end: number }, number][] = [];
  for (const d of startedDays) {
    d.slotStarts.forEach((s, k) => {
      const e = Math.min(s + HOUR, d.end, now);
      if (e > s) slotEntries.push([{ start: s, end: e }, SALES_PROFILE[d.slotHours[k]] * ((e - s) / HOUR)]);
    });
  }
  const slotTable = new WeightedTable(slotEntries);
  const times = new Float64Array(nSalesTarget);
  for (let i = 0; i < nSalesTarget; i++) {
    const s = slotTable.pick(rSales);
    times[i] = Math.floor(s.start + rSales.next() * (s.end - s.start));
  }
  times.sort();

  const sales: Sales = {
    n: 0,
    occurred: new Float64Array(nSalesTarget),
    created: new Float64Array(nSalesTarget),
    w: new Int32Array(nSalesTarget),
    stand: new Uint8Array(nSalesTarget),
    status: new Uint8Array(nSalesTarget),
    method: new Uint8Array(nSalesTarget),
    lines: new Uint8Array(nSalesTarget),
    product: new Uint16Array(nSalesTarget * MAX_LINES),
    qty: new Uint8Array(nSalesTarget * MAX_LINES),
    incl: new Uint8Array(nSalesTarget * MAX_LINES),
    allowNegative: new Uint8Array(nSalesTarget),
    promoSpent: new Int32Array(nSalesTarget),
    balanceSpent: new Int32Array(nSalesTarget),
  };
  const stands: StandModel[] = DEMO_STANDS.map((stand) => ({
    stand,
    products: new WeightedTable(
      stand.products.map((p) => [PRODUCT_INDEX.get(p.productId)!, p.weight] as const),
    ),
    lines: oneToFour(LINES_BY_KIND[stand.kind]),
    qty: oneToFour(QTY_BY_KIND[stand.kind]),
  }));
  const standTable = new WeightedTable(stands.map((s, i) => [i, s.stand.weight] as const));
  const openBarTable = new WeightedTable(
    stands.flatMap((s, i) =>
      s.stand.kind === "bar" && !s.stand.requiresZone ? [[i, s.stand.weight] as const] : [],
    ),
  );
  const saleStatusTable = new WeightedTable([
    [0, 97],
    [1, 2],
    [2, 1],
  ] as const);
  const saleMethodTable = new WeightedTable([
    [0, 90],
    [1, 7],
    [2, 3],
  ] as const);

  const byCreated = wristbands
    .map((_, i) => i)
    .sort((a, b) => wristbands[a].createdAt - wristbands[b].createdAt || a - b);
  const createdSorted = Float64Array.from(byCreated, (i) => wristbands[i].createdAt);
  const lastSaleAt = new Float64Array(wristbands.length).fill(Number.NEGATIVE_INFINITY);
  const lastSale = new Int32Array(wristbands.length).fill(-1);
  const firstSale = new Int32Array(wristbands.length).fill(-1);
  const welcomeUsed = new Uint8Array(wristbands.length);
  const mealUsed = new Uint8Array(wristbands.length);

  /** created_at of a record that occurred at t: usually seconds later, sometimes hours (offline terminal). */
  const arrival = (r: Random, t: number, offlineChance: number, quickMax: number): number => {
    if (t <= now - HOUR && r.chance(offlineChance)) {
      return t + Math.floor(r.float(HOUR, Math.min(6 * HOUR, now - t)));
    }
    return Math.min(now, t + Math.floor(r.next() * quickMax));
  };

  let ptr = 0;
  for (let k = 0; k < nSalesTarget; k++) {
    const r = rSales;
    const t = times[k];
    while (ptr < byCreated.length && createdSorted[ptr] <= t) ptr++;
    if (ptr === 0) continue;
    const dayIdx = dayIndexFor(t);
    const dayBit = 1 << dayIdx;
    let w = -1;
    for (let attempt = 0; attempt < 60; attempt++) {
      const c = byCreated[Math.floor(r.next() * ptr)];
      const wb = wristbands[c];
      if (t >= wb.saleUntil || !(wb.dayMask & dayBit) || t - lastSaleAt[c] < 5 * SECOND) continue;
      if (r.next() > wb.propensity) continue;
      w = c;
      break;
    }
    if (w < 0) continue;
    const wb = wristbands[w];
    let standIdx = standTable.pick(r);
    const required = stands[standIdx].stand.requiresZone;
    if (required && !(wb.zoneMask & (1 << zoneIndex(required)))) standIdx = openBarTable.pick(r);
    const model = stands[standIdx];
    const i = sales.n++;
    sales.occurred[i] = t;
    sales.w[i] = w;
    sales.stand[i] = standIdx;
    let status = saleStatusTable.pick(r);
    let method = saleMethodTable.pick(r);
    const nLines = model.lines.pick(r);
    const base = i * MAX_LINES;
    let count = 0;
    for (let attempt = 0; count < nLines && attempt < 12; attempt++) {
      const p = model.products.pick(r);
      let dup = false;
      for (let j = 0; j < count; j++) if (sales.product[base + j] === p) dup = true;
      if (dup) continue;
      sales.product[base + count] = p;
      sales.qty[base + count] = model.qty.pick(r);
      count++;
    }
    sales.lines[i] = count;
    // Included units: the VIP welcome drink and the crew meal, once per day each.
    if (wb.vip && model.stand.kind === "bar" && !(welcomeUsed[w] & dayBit)) {
      welcomeUsed[w] |= dayBit;
      sales.incl[base] = 1;
      status = 0;
      method = 0;
    } else if (wb.crew && model.stand.kind === "food" && !(mealUsed[w] & dayBit)) {
      mealUsed[w] |= dayBit;
      sales.incl[base] = 1;
      status = 0;
      method = 0;
    }
    sales.status[i] = status;
    sales.method[i] = method;
    sales.created[i] = arrival(r, t, 0.05, 20 * SECOND);
    lastSaleAt[w] = t;
    if (firstSale[w] < 0) firstSale[w] = i;
    lastSale[w] = i;
  }

  // A handful of wristbands pay offline with too little balance: some stay negative (their last
  // sale), others go negative and are topped up later (their first sale).
  const negCandidates = rSales.shuffle(
    wristbands
      .map((_, i) => i)
      .filter((i) => {
        const w = wristbands[i];
        return (
          w.status === "active" &&
          !w.crew &&
          !w.vip &&
          lastSale[i] >= 0 &&
          sales.occurred[lastSale[i]] <= now - HOUR
        );
      }),
  );
  const nNegEnd = Math.max(3, Math.round(8 * scale));
  const nNegMid = Math.max(2, Math.round(6 * scale));
  const makeNegative = (i: number) => {
    sales.status[i] = 0;
    sales.method[i] = 0;
    sales.allowNegative[i] = 1;
    const t = sales.occurred[i];
    sales.created[i] = t + Math.floor(rSales.float(HOUR, Math.min(6 * HOUR, now - t)));
  };
  let negEnd = 0;
  let negMid = 0;
  for (const w of negCandidates) {
    if (negEnd < nNegEnd) {
      wristbands[w].flagged = true;
      makeNegative(lastSale[w]);
      negEnd++;
    } else if (
      negMid < nNegMid &&
      firstSale[w] !== lastSale[w] &&
      sales.occurred[firstSale[w]] <= now - HOUR
    ) {
      wristbands[w].flagged = true;
      makeNegative(firstSale[w]);
      // Its last sale is paid with the wristband, so a top-up lands on the negative balance first.
      sales.status[lastSale[w]] = 0;
      sales.method[lastSale[w]] = 0;
      negMid++;
    }
  }

  // ---- Money: scheduled balance movements, then one chronological pass over everything.
  type Scheduled =
    | {
        t: number;
        kind: "topup";
        w: number;
        amount: number;
        method: "card" | "cash" | "online";
        device: string | null;
      }
    | { t: number; kind: "courtesy"; w: number; amount: number }
    | { t: number; kind: "withdraw"; w: number; fraction: number; release: boolean };
  const scheduled: Scheduled[] = [];
  const presetTable = new WeightedTable(
    DEMO_TOPUP_PRESETS.map((p, i) => [p, PRESET_WEIGHTS[i] ?? 10] as const),
  );
  const voluntaryMethod = new WeightedTable<"card" | "cash" | "online">([
    ["card", 50],
    ["cash", 25],
    ["online", 25],
  ]);
  const r = rMoney;
  const stationDevice = (method: string) => (method === "online" ? null : r.pick(DEMO_TOPUP_DEVICES));
  wristbands.forEach((w, i) => {
    if (w.flagged) return;
    const alive = (t: number) => t >= w.createdAt && t < w.activeUntil && t <= now;
    if (w.ticket < 0) {
      const t = w.createdAt + Math.floor(r.float(5 * SECOND, 60 * SECOND));
      const method = r.chance(0.6) ? "card" : "cash";
      if (alive(t))
        scheduled.push({
          t,
          kind: "topup",
          w: i,
          amount: presetTable.pick(r),
          method,
          device: r.pick(DEMO_TOPUP_DEVICES),
        });
    } else if (w.pair || r.chance(0.35)) {
      const t = w.createdAt + Math.floor(r.float(MINUTE, 20 * MINUTE));
      const method = voluntaryMethod.pick(r);
      const amount = w.pair ? 5000 : presetTable.pick(r);
      if (alive(t)) scheduled.push({ t, kind: "topup", w: i, amount, method, device: stationDevice(method) });
    }
    if (w.pair) {
      const t = w.activeUntil - Math.floor(r.float(MINUTE, 5 * MINUTE));
      if (alive(t))
        scheduled.push({
          t,
          kind: "topup",
          w: i,
          amount: 3000,
          method: "card",
          device: r.pick(DEMO_TOPUP_DEVICES),
        });
    }
    for (const d of startedDays) {
      if (!(w.dayMask & (1 << d.index)) || !r.chance(0.12)) continue;
      const t = sampleIn(r, d, SALES_PROFILE, w.createdAt, Math.min(w.activeUntil, now));
      if (t === null) continue;
      const method = voluntaryMethod.pick(r);
      scheduled.push({
        t,
        kind: "topup",
        w: i,
        amount: presetTable.pick(r),
        method,
        device: stationDevice(method),
      });
    }
    // Online top-ups from the app in the morning, between two day windows (they belong to the
    // previous day by the day rule).
    for (const d of startedDays) {
      if (d.index === 0 || !(w.dayMask & (1 << d.index)) || !r.chance(0.06)) continue;
      const t = d.start - Math.floor(r.float(10 * MINUTE, 5 * HOUR));
      if (alive(t))
        scheduled.push({
          t,
          kind: "topup",
          w: i,
          amount: presetTable.pick(r),
          method: "online",
          device: null,
        });
    }
    if (w.crew) {
      const first = w.createdAt + Math.floor(r.float(10 * SECOND, 60 * SECOND));
      if (alive(first)) scheduled.push({ t: first, kind: "courtesy", w: i, amount: DEMO_CREW_COURTESY });
      for (const d of startedDays) {
        if (d.start <= w.createdAt) continue;
        const t = d.start + Math.floor(r.float(0, 3 * HOUR));
        if (alive(t)) scheduled.push({ t, kind: "courtesy", w: i, amount: DEMO_CREW_COURTESY });
      }
    }
    if (w.status === "released") {
      scheduled.push({ t: w.statusAt, kind: "withdraw", w: i, fraction: 1, release: true });
    } else if (w.status === "active" && w.singleDay < 0) {
      for (const d of pastDays) {
        if (!r.chance(0.04)) continue;
        const t = d.end - Math.floor(r.float(10 * MINUTE, 4 * HOUR));
        if (alive(t))
          scheduled.push({ t, kind: "withdraw", w: i, fraction: r.float(0.3, 1), release: false });
      }
    }
  });
  scheduled.sort((a, b) => a.t - b.t);

  const topups: Topup[] = [];
  const granted = new Int32Array(tickets.length + wristbands.length);
  // Last balance movement of each person (a ticket's wristbands share one): top-ups placed "just
  // before" a sale never go back past it, so the bonus cap is consumed in time order.
  const lastMove = new Float64Array(granted.length).fill(Number.NEGATIVE_INFINITY);
  let paidSeen = 0;
  let failedSoFar = 0;
  const lastArrival = new Float64Array(wristbands.length).fill(Number.NEGATIVE_INFINITY);
  const cap = DEMO_EVENT.bonusCapPerPerson;
  const touch = (w: number, t: number, created: number) => {
    const person = wristbands[w].person;
    if (t > lastMove[person]) lastMove[person] = t;
    if (created > lastArrival[w]) lastArrival[w] = created;
  };
  const push = (rec: Omit<Topup, "id">) => {
    topups.push({ id: "", ...rec });
  };

  /** A paid top-up and its bonus; now and then preceded by a failed attempt, or left pending (app). */
  const paidTopup = (
    w: number,
    t: number,
    amount: number,
    method: "card" | "cash" | "online",
    device: string | null,
    voluntary: boolean,
  ) => {
    const wb = wristbands[w];
    paidSeen++;
    // A few card/app payments fail and are retried (at least two in any demo).
    if (method !== "cash" && (r.chance(0.012) || (failedSoFar < 2 && paidSeen % 20 === 0))) {
      const tf = t - Math.floor(r.float(15 * SECOND, 90 * SECOND));
      if (tf > lastMove[wb.person] && tf >= wb.createdAt) {
        failedSoFar++;
        const created = Math.min(now, tf + Math.floor(r.next() * 5 * SECOND));
        push({
          w,
          direction: "topup",
          amount,
          prev: wb.balance,
          next: wb.balance,
          method,
          nature: "paid",
          status: "failed",
          ruleId: null,
          device,
          occurred: tf,
          created,
        });
        touch(w, tf, created);
      }
    }
    const created =
      method === "online"
        ? Math.min(now, t + Math.floor(r.next() * 5 * SECOND))
        : arrival(r, t, 0.015, 20 * SECOND);
    if (voluntary && method === "online" && r.chance(0.005)) {
      push({
        w,
        direction: "topup",
        amount,
        prev: wb.balance,
        next: wb.balance,
        method,
        nature: "paid",
        status: "pending",
        ruleId: null,
        device,
        occurred: t,
        created,
      });
      touch(w, t, created);
      return;
    }
    push({
      w,
      direction: "topup",
      amount,
      prev: wb.balance,
      next: wb.balance + amount,
      method,
      nature: "paid",
      status: "completed",
      ruleId: null,
      device,
      occurred: t,
      created,
    });
    wb.balance += amount;
    touch(w, t, created);
    const rules = validRules(bonusRules, new Date(t));
    if (rules.length === 0) return;
    const quote = quoteLine(rules, amount, remainingCap(cap, granted[wb.person], []));
    if (quote.bonus_amount <= 0 || !quote.rule) return;
    push({
      w,
      direction: "topup",
      amount: quote.bonus_amount,
      prev: wb.promo,
      next: wb.promo + quote.bonus_amount,
      method: "promo",
      nature: "bonus",
      status: "completed",
      ruleId: quote.rule.id,
      device,
      occurred: t,
      created,
    });
    wb.promo += quote.bonus_amount;
    granted[wb.person] += quote.bonus_amount;
  };

  const autoMethod = new WeightedTable<"card" | "cash" | "online">([
    ["card", 50],
    ["cash", 20],
    ["online", 30],
  ]);
  const amountFor = (shortfall: number, minimal: boolean): number => {
    const fitting = DEMO_TOPUP_PRESETS.filter((p) => p >= shortfall);
    if (fitting.length === 0) return Math.ceil(shortfall / 5000) * 5000;
    if (minimal) return fitting[0];
    return r.weighted(
      fitting,
      fitting.map((p) => PRESET_WEIGHTS[DEMO_TOPUP_PRESETS.indexOf(p)] ?? 10),
    );
  };

  const saleTotal = (i: number): number => {
    let total = 0;
    const base = i * MAX_LINES;
    for (let j = 0; j < sales.lines[i]; j++) {
      total +=
        (sales.qty[base + j] - sales.incl[base + j]) * DEMO_PRODUCTS[sales.product[base + j]].unitPrice;
    }
    return total;
  };

  const processSale = (i: number) => {
    const w = sales.w[i];
    const wb = wristbands[w];
    const t = sales.occurred[i];
    if (sales.status[i] !== 0 || sales.method[i] !== 0) {
      touch(w, t, Number.NEGATIVE_INFINITY);
      return;
    }
    let total = saleTotal(i);
    const funds = () => Math.max(0, wb.promo) + wb.balance;
    if (sales.allowNegative[i]) {
      // Offline terminal, stale balance: make the basket exceed what the wristband holds.
      const base = i * MAX_LINES;
      let top = 0;
      for (let j = 1; j < sales.lines[i]; j++) {
        if (
          DEMO_PRODUCTS[sales.product[base + j]].unitPrice >
          DEMO_PRODUCTS[sales.product[base + top]].unitPrice
        )
          top = j;
      }
      while (total <= funds() && sales.qty[base + top] < 12) {
        sales.qty[base + top]++;
        total = saleTotal(i);
      }
    } else if (total > funds()) {
      const method = autoMethod.pick(r);
      const lo = Math.max(lastMove[wb.person] + 1, wb.createdAt, days[dayIndexFor(t)].start);
      const at = Math.min(t, Math.max(lo, t - Math.floor(r.float(20 * SECOND, 8 * MINUTE))));
      paidTopup(w, at, amountFor(total - funds(), wb.flagged), method, stationDevice(method), false);
    }
    const promoSpent = Math.min(Math.max(0, wb.promo), total);
    sales.promoSpent[i] = promoSpent;
    sales.balanceSpent[i] = total - promoSpent;
    wb.promo -= promoSpent;
    wb.balance -= total - promoSpent;
    touch(w, t, sales.created[i]);
  };

  const processScheduled = (e: Scheduled) => {
    const wb = wristbands[e.w];
    if (e.kind === "topup") {
      paidTopup(e.w, e.t, e.amount, e.method, e.device, true);
    } else if (e.kind === "courtesy") {
      const created = Math.min(now, e.t + Math.floor(r.next() * 5 * SECOND));
      push({
        w: e.w,
        direction: "topup",
        amount: e.amount,
        prev: wb.promo,
        next: wb.promo + e.amount,
        method: "promo",
        nature: "courtesy",
        status: "completed",
        ruleId: null,
        device: DEMO_COURTESY_DEVICE,
        occurred: e.t,
        created,
      });
      wb.promo += e.amount;
      touch(e.w, e.t, created);
    } else {
      const amount = e.release ? wb.balance : Math.floor((wb.balance * e.fraction) / 100) * 100;
      if (amount <= 0) return;
      const created = Math.min(now, e.t + Math.floor(r.next() * 10 * SECOND));
      push({
        w: e.w,
        direction: "withdraw",
        amount,
        prev: wb.balance,
        next: wb.balance - amount,
        method: r.chance(0.6) ? "cash" : "card",
        nature: "paid",
        status: "completed",
        ruleId: null,
        device: r.pick(DEMO_REFUND_DEVICES),
        occurred: e.t,
        created,
      });
      wb.balance -= amount;
      touch(e.w, e.t, created);
    }
  };

  let si = 0;
  let ei = 0;
  while (si < sales.n || ei < scheduled.length) {
    if (ei < scheduled.length && (si >= sales.n || scheduled[ei].t <= sales.occurred[si]))
      processScheduled(scheduled[ei++]);
    else processSale(si++);
  }

  // A wristband row changes when its status changes and when a balance movement reaches the server.
  wristbands.forEach((w, i) => {
    w.updatedAt = Math.max(
      w.createdAt,
      Number.isFinite(w.statusAt) ? w.statusAt : w.createdAt,
      lastArrival[i],
    );
  });

  // ---- Scans: a check-in per used ticket (two for a pending-review pair), then access checks.
  const scans: Scan[] = [];
  const checkInGates = DEMO_GATES.filter((g) => g.checkIn);
  tickets.forEach((t, i) => {
    if (t.status !== "used" || t.checkedInAt === null) return;
    const w = checkInWristband[i];
    scans.push({
      id: "",
      kind: "check_in",
      allowed: true,
      reason: null,
      code: t.code,
      ticketCode: t.code,
      w,
      zone: -1,
      device: rScans.pick(checkInGates).deviceId,
      occurred: t.checkedInAt,
      created: t.checkedInAt,
    });
  });
  for (const p of pairSecondCheckIns) {
    const t = tickets[wristbands[p.second].ticket];
    scans.push({
      id: "",
      kind: "check_in",
      allowed: true,
      reason: null,
      code: t.code,
      ticketCode: t.code,
      w: p.second,
      zone: -1,
      device: rScans.pick(checkInGates).deviceId,
      occurred: p.at,
      created: p.synced,
    });
  }
  const nAccess = Math.max(30, Math.round(10000 * scale));
  const accessSlots: [{ start: number; end: number }, number][] = [];
  for (const d of startedDays) {
    d.slotStarts.forEach((s, k) => {
      const e = Math.min(s + HOUR, d.end, now);
      if (e > s) accessSlots.push([{ start: s, end: e }, ACCESS_PROFILE[d.slotHours[k]] * ((e - s) / HOUR)]);
    });
  }
  const accessTable = new WeightedTable(accessSlots);
  const zoneTable = new WeightedTable(DEMO_ZONES.map((_, z) => [z, [50, 20, 10, 15, 5][z] ?? 5] as const));
  const gatesByZone = DEMO_ZONES.map((z) =>
    DEMO_GATES.filter((g) => g.zone === z.key).map((g) => g.deviceId),
  );
  for (let k = 0; k < nAccess; k++) {
    const s = accessTable.pick(rScans);
    const t = Math.floor(s.start + rScans.next() * (s.end - s.start));
    const created = Math.min(now, t + Math.floor(rScans.next() * 3 * SECOND));
    const hi = countAtOrBefore(createdSorted, t);
    if (hi === 0 || rScans.chance(0.01)) {
      let code: string;
      do code = `04${rScans.hex(12)}`.toUpperCase();
      while (nfcs.has(code));
      const zone = zoneTable.pick(rScans);
      scans.push({
        id: "",
        kind: "access_check",
        allowed: false,
        reason: "unknown_code",
        code,
        ticketCode: null,
        w: -1,
        zone,
        device: rScans.pick(gatesByZone[zone]),
        occurred: t,
        created,
      });
      continue;
    }
    const dayBit = 1 << dayIndexFor(t);
    let w = -1;
    let status: WristbandStatus = "active";
    for (let attempt = 0; attempt < 40; attempt++) {
      const c = byCreated[Math.floor(rScans.next() * hi)];
      const wb = wristbands[c];
      const st: WristbandStatus = t >= wb.statusAt ? wb.status : "active";
      // Wristbands that left (released, or a day ticket on another day) rarely show up at a gate.
      if ((st === "released" || !(wb.dayMask & dayBit)) && !rScans.chance(0.05)) continue;
      w = c;
      status = st;
      break;
    }
    if (w < 0) continue;
    const wb = wristbands[w];
    const zone = rScans.chance(0.94)
      ? rScans.pick(wb.zones.concat(wb.zones.includes(0) ? [0, 0] : []))
      : zoneTable.pick(rScans);
    let reason: string | null = null;
    if (status !== "active") reason = status;
    else if (!(wb.dayMask & dayBit)) reason = "day_not_valid";
    else if (!(wb.zoneMask & (1 << zone))) reason = "zone_not_allowed";
    scans.push({
      id: "",
      kind: "access_check",
      allowed: reason === null,
      reason,
      code: rScans.chance(0.85) ? wb.nfc : wb.uhf,
      ticketCode: wb.ticket >= 0 ? tickets[wb.ticket].code : null,
      w,
      zone,
      device: rScans.pick(gatesByZone[zone]),
      occurred: t,
      created,
    });
  }

  // Blocked and lost wristbands tried at a gate after their status changed.
  wristbands.forEach((wb, w) => {
    if (wb.status !== "blocked" && wb.status !== "lost") return;
    const d = startedDays.find((day) => day.end > wb.statusAt + MINUTE);
    const t = d ? sampleIn(rScans, d, ACCESS_PROFILE, wb.statusAt + MINUTE, now) : null;
    if (t === null) return;
    const zone = rScans.pick(wb.zones);
    scans.push({
      id: "",
      kind: "access_check",
      allowed: false,
      reason: wb.status,
      code: wb.nfc,
      ticketCode: wb.ticket >= 0 ? tickets[wb.ticket].code : null,
      w,
      zone,
      device: rScans.pick(gatesByZone[zone]),
      occurred: t,
      created: Math.min(now, t + Math.floor(rScans.next() * 3 * SECOND)),
    });
  });

  // ---- Ids: per table, in arrival (created_at) order.
  const assign = <T extends { id: string }>(items: T[], createdOf: (x: T) => number, g: IdGenerator) => {
    const order = items.map((_, i) => i).sort((a, b) => createdOf(items[a]) - createdOf(items[b]) || a - b);
    for (const i of order) items[i].id = g.next(new Date(createdOf(items[i])));
  };
  assign(tickets, (t) => t.createdAt, gen.tickets);
  assign(wristbands, (w) => w.createdAt, gen.wristbands);
  assign(topups, (t) => t.created, gen.topups);
  assign(scans, (s) => s.created, gen.scans);
  const salesOrder = new Uint32Array(sales.n);
  for (let i = 0; i < sales.n; i++) salesOrder[i] = i;
  salesOrder.sort((a, b) => sales.created[a] - sales.created[b] || a - b);
  const salesIds: string[] = new Array(sales.n);
  for (const i of salesOrder) salesIds[i] = gen.sales.next(new Date(sales.created[i]));

  return {
    now,
    eventRow,
    days,
    zoneRows,
    typeRows,
    ruleRows,
    tickets,
    wristbands,
    sales,
    salesOrder,
    salesIds,
    topups,
    scans,
    summary: {
      tickets: tickets.length,
      wristbands: wristbands.length,
      sales: sales.n,
      topups: topups.length,
      scans: scans.length,
      days: days.length,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Writing.

async function insertRows(
  tx: Queryable,
  table: string,
  count: number,
  row: (k: number) => unknown,
): Promise<void> {
  const sql = `insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`;
  for (let from = 0; from < count; from += INSERT_CHUNK) {
    const chunk: unknown[] = [];
    for (let k = from; k < Math.min(count, from + INSERT_CHUNK); k++) chunk.push(row(k));
    await tx.query(sql, [JSON.stringify(chunk)]);
  }
}

const byId = <T extends { id: string }>(items: T[]): T[] =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

const BULK_TABLES = ["tickets", "wristbands", "sales", "topups", "scans"];

/**
 * Secondary indexes of the bulk tables (not those backing a primary key or unique constraint) are
 * dropped while the rows go in and rebuilt from their own definitions afterwards, in the same
 * transaction: about twice as fast for a million sales.
 */
async function withoutSecondaryIndexes(tx: Queryable, write: () => Promise<void>): Promise<void> {
  const indexes = await tx.query<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relname = any($1::text[]) and t.relnamespace = current_schema()::regnamespace
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
      order by 1`,
    [BULK_TABLES],
  );
  for (const index of indexes) await tx.query(`drop index ${index.name}`);
  await write();
  for (const index of indexes) await tx.query(index.def);
}

async function writeDemo(tx: Queryable, data: DemoData): Promise<void> {
  await withoutSecondaryIndexes(tx, () => writeRows(tx, data));
}

async function writeRows(tx: Queryable, data: DemoData): Promise<void> {
  const { days, zoneRows, typeRows, tickets, wristbands, sales, topups, scans } = data;
  const dayId = (i: number) => days[i].id;
  await insertRows(tx, "event", 1, () => data.eventRow);
  await insertRows(tx, "days", days.length, (k) => ({
    id: days[k].id,
    name: days[k].name,
    date: days[k].date,
    starts_at: iso(days[k].start),
    ends_at: iso(days[k].end),
  }));
  await insertRows(tx, "zones", zoneRows.length, (k) => zoneRows[k]);
  await insertRows(tx, "ticket_types", typeRows.length, (k) => typeRows[k]);
  await insertRows(tx, "bonus_rules", data.ruleRows.length, (k) => data.ruleRows[k]);

  const dayIndexFor = (t: number): number => dayIndexAt(days, t);

  const ticketList = byId(tickets);
  await insertRows(tx, "tickets", ticketList.length, (k) => {
    const t = ticketList[k];
    return {
      id: t.id,
      code: t.code,
      status: t.status,
      ticket_type_id: typeRows[t.type].id,
      attendee_name: t.name,
      attendee_email: t.email,
      document_type: t.docType,
      document_number: t.docNumber,
      birth_date: t.birthDate,
      valid_day_ids: t.days.map(dayId),
      extra_zone_ids: t.extraZones.map((z) => zoneRows[z].id),
      wristband_id: t.wristband >= 0 ? wristbands[t.wristband].id : null,
      checked_in_at: t.checkedInAt === null ? null : iso(t.checkedInAt),
      created_at: iso(t.createdAt),
      updated_at: iso(t.updatedAt),
    };
  });

  const wristbandList = byId(wristbands);
  await insertRows(tx, "wristbands", wristbandList.length, (k) => {
    const w = wristbandList[k];
    return {
      id: w.id,
      nfc: w.nfc,
      uhf: w.uhf,
      status: w.status,
      balance: w.balance,
      promo_balance: w.promo,
      attendee_name: w.ticket >= 0 ? tickets[w.ticket].name : null,
      ticket_id: w.ticket >= 0 ? tickets[w.ticket].id : null,
      zone_ids: w.zones.map((z) => zoneRows[z].id),
      valid_day_ids: days.filter((d) => w.dayMask & (1 << d.index)).map((d) => d.id),
      created_at: iso(w.createdAt),
      updated_at: iso(w.updatedAt),
    };
  });

  await insertRows(tx, "sales", sales.n, (k) => {
    const i = data.salesOrder[k];
    const base = i * MAX_LINES;
    const items = [];
    const grossByRate = new Map<number, number>();
    let total = 0;
    for (let j = 0; j < sales.lines[i]; j++) {
      const p = DEMO_PRODUCTS[sales.product[base + j]];
      const quantity = sales.qty[base + j];
      const included = sales.incl[base + j];
      const charged = (quantity - included) * p.unitPrice;
      total += charged;
      grossByRate.set(p.taxRate, (grossByRate.get(p.taxRate) ?? 0) + charged);
      items.push({
        product_id: p.id,
        name: p.name,
        quantity,
        unit_price: p.unitPrice,
        charged_amount: charged,
        included_quantity: included,
      });
    }
    let totalBase = 0;
    const taxBreakdown = [...grossByRate.entries()]
      .filter(([, gross]) => gross !== 0)
      .sort((a, b) => a[0] - b[0])
      .map(([rate, gross]) => {
        const base = Math.round((gross * 100) / (100 + rate));
        totalBase += base;
        return { tax_type: "VAT", rate, base, amount: gross - base };
      });
    return {
      id: data.salesIds[i],
      status: SALE_STATUS[sales.status[i]],
      type: "cart",
      payment_method: SALE_METHOD[sales.method[i]],
      total,
      total_base: totalBase,
      total_tax: total - totalBase,
      tax_breakdown: taxBreakdown,
      items,
      promo_spent: sales.promoSpent[i],
      balance_spent: sales.balanceSpent[i],
      wristband_id: wristbands[sales.w[i]].id,
      day_id: dayId(dayIndexFor(sales.occurred[i])),
      device_id: DEMO_STANDS[sales.stand[i]].deviceId,
      occurred_at: iso(sales.occurred[i]),
      created_at: iso(sales.created[i]),
    };
  });

  const topupList = byId(topups);
  await insertRows(tx, "topups", topupList.length, (k) => {
    const t = topupList[k];
    return {
      id: t.id,
      direction: t.direction,
      amount: t.amount,
      previous_balance: t.prev,
      new_balance: t.next,
      payment_method: t.method,
      nature: t.nature,
      status: t.status,
      bonus_rule_id: t.ruleId,
      wristband_id: wristbands[t.w].id,
      day_id: dayId(dayIndexFor(t.occurred)),
      device_id: t.device,
      occurred_at: iso(t.occurred),
      created_at: iso(t.created),
    };
  });

  const scanList = byId(scans);
  await insertRows(tx, "scans", scanList.length, (k) => {
    const s = scanList[k];
    return {
      id: s.id,
      kind: s.kind,
      allowed: s.allowed,
      reason: s.reason,
      code: s.code,
      ticket_code: s.ticketCode,
      wristband_id: s.w >= 0 ? wristbands[s.w].id : null,
      zone_id: s.zone >= 0 ? zoneRows[s.zone].id : null,
      device_id: s.device,
      day_id: dayId(dayIndexFor(s.occurred)),
      occurred_at: iso(s.occurred),
      created_at: iso(s.created),
    };
  });
}
