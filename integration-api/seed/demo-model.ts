import type { BonusRule } from "../services/bonus-rules";
import { DEMO_ZONES, type ZoneKey } from "./demo-catalog";
import type { Random } from "./random";

/**
 * The demo event in memory, as the sections of the seeder build it (seed-*.ts) before demo-write.ts
 * stores it. Times are epoch milliseconds.
 */

export interface SeedOptions {
  /** Multiplies tickets, wristbands, sales, top-ups and scans (1 ≈ 50,000 sales). Fractions allowed. */
  scale: number;
  /** Seed of the pseudo-random generator. */
  random: number;
  /** The moment the demo is built around (default: the current time). Nothing happens after it. */
  now?: Date;
  /** The festival's time zone (default Europe/Madrid). */
  timeZone?: string;
}

export interface SeedSummary {
  tickets: number;
  wristbands: number;
  sales: number;
  topups: number;
  scans: number;
  days: number;
}
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------------------------
// Profiles (relative activity by local hour; hours 06–11 are outside the day windows).

// biome-ignore format: a table
export const SALES_PROFILE = [
  2.9, 2.6, 2.1, 1.5, 0.9, 0.4, 0, 0, 0, 0, 0, 0,
  0.25, 0.45, 0.6, 0.7, 0.8, 0.95, 1.15, 1.4, 1.7, 2.1, 2.5, 2.8,
];
// biome-ignore format: a table
export const CHECKIN_PROFILE = [
  0.6, 0.3, 0.15, 0.08, 0.04, 0.02, 0, 0, 0, 0, 0, 0,
  1.0, 1.4, 1.6, 1.8, 2.2, 2.6, 2.8, 2.6, 2.2, 1.8, 1.4, 1.0,
];
// biome-ignore format: a table
export const ACCESS_PROFILE = [
  2.0, 1.8, 1.5, 1.0, 0.6, 0.3, 0, 0, 0, 0, 0, 0,
  0.6, 0.8, 1.0, 1.1, 1.3, 1.5, 1.8, 2.0, 2.2, 2.4, 2.4, 2.2,
];

// ---------------------------------------------------------------------------------------------
// In-memory model.

export type TicketStatus = "active" | "used" | "inactive";
export type WristbandStatus = "active" | "blocked" | "lost" | "released" | "pending_review";
export type TopupMethod = "card" | "cash" | "online" | "promo";

export interface Day {
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

export interface Ticket {
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

export interface Wristband {
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

export interface Topup {
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

export interface Scan {
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
export interface Sales {
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

export const MAX_LINES = 4;
export const SALE_STATUS = ["completed", "cancelled", "pending"] as const;
export const SALE_METHOD = ["wristband", "card", "cash"] as const;

/** Everything the sections share: the clock, the event's days, the id generators and random streams. */
export interface SeedContext {
  scale: number;
  now: number;
  /** Independent streams per section, so changing one section leaves the others' data alone. */
  random: Record<"tickets" | "wristbands" | "sales" | "money" | "scans", Random>;
  days: Day[];
  /** Days whose window opened before now. */
  startedDays: Day[];
  /** Days whose window closed by now. */
  pastDays: Day[];
  allDaysMask: number;
  firstStart: number;
  bonusRules: BonusRule[];
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The day of a record: the day whose [start, end) holds t; else the last day started before t;
 * else the first day. `days` are in start order.
 */
export function dayIndexAt(days: readonly { start: number; end: number }[], t: number): number {
  for (let i = 0; i < days.length; i++) if (t >= days[i].start && t < days[i].end) return i;
  for (let i = days.length - 1; i >= 0; i--) if (days[i].start <= t) return i;
  return 0;
}

/** How many values of an ascending array are <= x (binary search). */
export function countAtOrBefore(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A time inside day d's window and [lo, hi), following an hourly profile; null when empty. */
export function sampleIn(
  r: Random,
  d: Day,
  profile: readonly number[],
  lo: number,
  hi: number,
): number | null {
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
}

const ZONE_INDEX = new Map<ZoneKey, number>(DEMO_ZONES.map((z, i) => [z.key, i]));
export const zoneIndex = (key: ZoneKey): number => ZONE_INDEX.get(key)!;

/** created_at of a record that occurred at t: usually seconds later, sometimes hours (offline terminal). */
export function arrival(now: number, r: Random, t: number, offlineChance: number, quickMax: number): number {
  if (t <= now - HOUR && r.chance(offlineChance)) {
    return t + Math.floor(r.float(HOUR, Math.min(6 * HOUR, now - t)));
  }
  return Math.min(now, t + Math.floor(r.next() * quickMax));
}

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
