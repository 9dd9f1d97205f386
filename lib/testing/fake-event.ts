import "server-only";
import type {
  Checkin,
  Day,
  Event,
  SalesSummary,
  Ticket,
  TicketType,
  Topup,
  Transaction,
  Wristband,
  WristbandStatus,
  Zone,
} from "@/lib/contract";
import { type FakeClock, seededRandom } from "./fake-clock";

/**
 * The fake upstream's event and records (see fake-upstream.ts): a catalog, a seeded history, records
 * a test adds (late ones with an id below a client's cursor, hidden ones the key cannot see), and the
 * sales summary computed from them. Every random choice comes from one seeded PRNG, shared with the
 * HTTP side (page sizes, chaos), so a seed replays the same run.
 */

export interface FakeEventOptions {
  clock: FakeClock;
  seed?: number;
  /** Share of records hidden from the key (default 0.2). */
  hiddenShare?: number;
  /** Size of the initial data set (default: 400 sales, 150 top-ups, 200 scans, 60 tickets). */
  initial?: { sales?: number; topups?: number; scans?: number; tickets?: number };
}

/** A record as the fake holds it: `hidden` ones are out of the key's scope. */
export type Visible<T> = T & { hidden?: boolean };
const HOUR = 3_600_000;

export function createFakeEvent(options: FakeEventOptions) {
  const clock = options.clock;
  const rnd = seededRandom(options.seed ?? 1);
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
  const hiddenShare = options.hiddenShare ?? 0.2;
  const iso = (ms: number) => new Date(ms).toISOString();

  // Ids: fixed-width hex, so string order is numeric order. Arrivals take multiples of 1000; a
  // "late" record takes a free value between them, i.e. an id below records already listed.
  // Each seed has its own id range, so two fakes never share an id (or an event).
  const base = (options.seed ?? 1) * 1e10;
  let seq = 1;
  const used = new Set<string>();
  const hex = (n: number) => n.toString(16).padStart(24, "0");
  const newId = () => {
    const id = hex(base + seq++ * 1000);
    used.add(id);
    return id;
  };
  const idBelow = (maxId: string) => {
    const max = Number.parseInt(maxId, 16);
    for (;;) {
      const id = hex(base + int(1, max - base - 1));
      if (!used.has(id) && id < maxId) {
        used.add(id);
        return id;
      }
    }
  };

  // ── catalog ────────────────────────────────────────────────────────────────────────────────
  const start = Date.parse("2026-07-09T10:00:00.000Z");
  const event: Event = {
    object: "event",
    id: newId(),
    name: "Fake Fest",
    currency: "EUR",
    time_zone: "Europe/Madrid",
    starts_at: iso(start),
    ends_at: iso(start + 3 * 24 * HOUR),
    environment: "test",
  };
  const days: Day[] = [0, 1, 2].map((i) => ({
    object: "day",
    id: newId(),
    name: `Day ${i + 1}`,
    date: iso(start + i * 24 * HOUR).slice(0, 10),
    starts_at: iso(start + i * 24 * HOUR),
    ends_at: iso(start + i * 24 * HOUR + 18 * HOUR),
  }));
  const zones: Zone[] = ["Main", "VIP", "Backstage"].map((name) => ({ object: "zone", id: newId(), name }));
  const ref = (x: { id: string; name: string }) => ({ id: x.id, name: x.name });
  const ticketTypes: TicketType[] = [
    { object: "ticket_type", id: newId(), name: "General", zones: [ref(zones[0])] },
    { object: "ticket_type", id: newId(), name: "VIP", zones: [ref(zones[0]), ref(zones[1])] },
  ];

  // ── records ────────────────────────────────────────────────────────────────────────────────
  const tickets = new Map<string, Ticket>();
  const wristbands = new Map<string, Wristband>();
  const sales = new Map<string, Visible<Transaction>>();
  const topups = new Map<string, Visible<Topup>>();
  const scans = new Map<string, Visible<Checkin>>();

  const dayAt = (index: number, fraction = rnd()) => {
    const d = days[index];
    const from = Date.parse(d.starts_at);
    return from + Math.floor(fraction * (Date.parse(d.ends_at) - from - 1));
  };
  const dayOf = (ms: number) =>
    days.find((d) => Date.parse(d.starts_at) <= ms && ms < Date.parse(d.ends_at)) ?? days[0];
  /** An instant on a day already started by now (the clock), not after now. */
  const pastInstant = () => {
    const started = days.filter((d) => Date.parse(d.starts_at) < clock.ms);
    const index = days.indexOf(pick(started.length ? started : days));
    return Math.min(dayAt(index), clock.ms);
  };

  function addTicket(): Ticket {
    const type = pick(ticketTypes);
    const at = iso(clock.ms);
    const ticket: Ticket = {
      object: "ticket",
      id: newId(),
      code: `TK-${seq}`,
      status: "active",
      ticket_type: ref(type),
      attendee: { name: `Guest ${seq}`, email: `guest${seq}@example.com`, document: null },
      valid_days: days.map(ref),
      extra_zones: [],
      wristband: null,
      checked_in_at: null,
      created_at: at,
      updated_at: at,
    };
    tickets.set(ticket.id, ticket);
    return ticket;
  }

  function addWristband(status: WristbandStatus = "active"): Wristband {
    const ticket = pick([...tickets.values()]);
    const at = iso(clock.ms);
    const w: Wristband = {
      object: "wristband",
      id: newId(),
      nfc: `NFC${seq}`,
      uhf: null,
      status,
      balance: int(0, 10_000),
      promo_balance: 0,
      attendee: { name: ticket.attendee.name, anonymous: false },
      ticket: { code: ticket.code, ticket_type: ticket.ticket_type.name },
      allowed_zones: [ref(zones[0])],
      valid_days: days.map((d) => d.id),
      created_at: at,
      updated_at: at,
    };
    wristbands.set(w.id, w);
    return w;
  }

  const hidden = () => rnd() < hiddenShare;
  /** Records made by the test arrive about now (a terminal a minute or two behind); the seed is historic. */
  let seeding = true;
  const recentInstant = () => (seeding ? pastInstant() : clock.ms - int(0, 120_000));

  /**
   * A sale arriving now (occurred in the last two minutes); an older `occurredAt` makes it an
   * offline one, `belowId` gives it an id below that one (below a client's cursor).
   */
  function addSale(o: { occurredAt?: number; belowId?: string; status?: Transaction["status"] } = {}) {
    const occurred = o.occurredAt ?? recentInstant();
    const items = Array.from({ length: int(1, 3) }, (_, i) => {
      const quantity = int(1, 4);
      const included = rnd() < 0.1 ? 1 : 0;
      const unit = pick([300, 450, 800, 1250]);
      return {
        product_id: `p${i}${int(0, 5)}`,
        name: pick(["Beer", "Water", "Burger", "Fries"]),
        quantity,
        unit_price: unit,
        charged_amount: (quantity - included) * unit,
        included_quantity: included,
      };
    });
    const rate = pick([10, 21]);
    const total = items.reduce((s, i) => s + i.charged_amount, 0);
    const base = Math.round((total * 100) / (100 + rate));
    const sale: Visible<Transaction> = {
      object: "transaction",
      id: o.belowId ? idBelow(o.belowId) : newId(),
      status: o.status ?? (rnd() < 0.9 ? "completed" : pick(["pending", "cancelled"] as const)),
      type: "cart",
      payment_method: pick(["wristband", "wristband", "card", "cash"] as const),
      total,
      total_base: base,
      total_tax: total - base,
      tax_breakdown: [{ tax_type: "VAT", rate, base, amount: total - base }],
      items,
      wristband_id: pick([...wristbands.keys()]),
      day_id: dayOf(occurred).id,
      device_id: rnd() < 0.1 ? null : `bar-${int(1, 4)}`,
      occurred_at: iso(occurred),
      created_at: iso(clock.ms),
      hidden: hidden(),
    };
    sales.set(sale.id, sale);
    return sale;
  }

  function addTopup(o: { occurredAt?: number; belowId?: string; status?: Topup["status"] } = {}) {
    const occurred = o.occurredAt ?? recentInstant();
    const direction = rnd() < 0.85 ? "topup" : "withdraw";
    const bonus = direction === "topup" && rnd() < 0.2;
    const amount = pick([500, 1000, 2000, 5000]);
    const before = int(0, 5000);
    const topup: Visible<Topup> = {
      object: "topup",
      id: o.belowId ? idBelow(o.belowId) : newId(),
      direction,
      amount,
      previous_balance: before,
      new_balance: direction === "topup" ? before + amount : before - amount,
      payment_method: bonus ? "promo" : pick(["card", "cash", "online"] as const),
      nature: bonus ? "bonus" : "paid",
      status: o.status ?? (rnd() < 0.92 ? "completed" : pick(["pending", "failed"] as const)),
      wristband_id: pick([...wristbands.keys()]),
      day_id: dayOf(occurred).id,
      device_id: `desk-${int(1, 3)}`,
      occurred_at: iso(occurred),
      created_at: iso(clock.ms),
      hidden: hidden(),
    };
    topups.set(topup.id, topup);
    return topup;
  }

  function addScan(o: { occurredAt?: number } = {}) {
    const occurred = o.occurredAt ?? recentInstant();
    const w = pick([...wristbands.values()]);
    const allowed = rnd() < 0.9;
    const scan: Visible<Checkin> = {
      object: "checkin",
      id: newId(),
      kind: rnd() < 0.3 ? "check_in" : "access_check",
      allowed,
      reason: allowed ? null : "zone_not_allowed",
      ticket_code: w.ticket?.code ?? null,
      wristband_id: w.id,
      zone: rnd() < 0.1 ? null : ref(pick(zones)),
      device_id: `gate-${int(1, 6)}`,
      day_id: dayOf(occurred).id,
      occurred_at: iso(occurred),
      created_at: iso(clock.ms),
      hidden: hidden(),
    };
    scans.set(scan.id, scan);
    return scan;
  }

  /** A ticket modified now: checked in (or cancelled), its updated_at moves. */
  function touchTicket(id?: string) {
    const ticket = id ? tickets.get(id)! : pick([...tickets.values()].filter((t) => t.status === "active"));
    if (!ticket) return null;
    ticket.status = rnd() < 0.8 ? "used" : "inactive";
    ticket.checked_in_at = ticket.status === "used" ? iso(clock.ms) : null;
    ticket.updated_at = iso(clock.ms);
    return ticket;
  }

  function setWristbandStatus(id: string, status: WristbandStatus) {
    const w = wristbands.get(id)!;
    w.status = status;
    w.updated_at = iso(clock.ms);
  }

  /** A sale's status changes after it was listed (pending → completed): only a checksum sees it. */
  function completeSale(id: string) {
    sales.get(id)!.status = "completed";
  }

  const initial = { sales: 400, topups: 150, scans: 200, tickets: 60, ...options.initial };
  for (let i = 0; i < initial.tickets; i++) addTicket();
  for (let i = 0; i < Math.ceil(initial.tickets * 0.7); i++)
    addWristband(i % 9 === 0 ? "pending_review" : "active");
  for (let i = 0; i < initial.sales; i++) addSale();
  for (let i = 0; i < initial.topups; i++) addTopup();
  for (let i = 0; i < initial.scans; i++) addScan();
  seeding = false;

  /** A summary that disagrees with the lists (an upstream bug): extra sales counted per day. */
  const summaryBias = new Map<string, number>();

  function summary(dayId: string | null): SalesSummary {
    const inDay = <T extends { day_id: string; status: string; hidden?: boolean }>(x: T) =>
      !x.hidden && x.status === "completed" && (!dayId || x.day_id === dayId);
    const s = [...sales.values()].filter(inDay);
    const t = [...topups.values()].filter(inDay);
    const group = <T>(items: T[], key: (x: T) => string) => {
      const m = new Map<string, T[]>();
      for (const x of items) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
      return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    };
    const sum = <T>(items: T[], f: (x: T) => number) => items.reduce((acc, x) => acc + f(x), 0);
    const flow = (direction: "topup" | "withdraw") => {
      const lines = t.filter((x) => x.direction === direction);
      return {
        count: lines.length,
        amount: sum(lines, (x) => x.amount),
        by_payment_method: group(lines, (x) => x.payment_method).map(([payment_method, xs]) => ({
          payment_method,
          count: xs.length,
          amount: sum(xs, (x) => x.amount),
        })),
      };
    };
    const taxLines = s.flatMap((x) => x.tax_breakdown);
    const itemLines = s.flatMap((x) => x.items);
    const bonuses = t.filter((x) => x.nature === "bonus" && x.direction === "topup");
    return {
      object: "sales_summary",
      day_id: dayId,
      currency: event.currency,
      sales: {
        count: s.length + (dayId ? (summaryBias.get(dayId) ?? 0) : 0),
        total: sum(s, (x) => x.total),
        total_base: sum(s, (x) => x.total_base),
        total_tax: sum(s, (x) => x.total_tax),
      },
      by_payment_method: group(s, (x) => x.payment_method).map(([payment_method, xs]) => ({
        payment_method,
        count: xs.length,
        total: sum(xs, (x) => x.total),
      })),
      by_tax: group(taxLines, (x) => `${x.tax_type}:${x.rate}`).map(([, xs]) => ({
        tax_type: xs[0].tax_type,
        rate: xs[0].rate,
        base: sum(xs, (x) => x.base),
        amount: sum(xs, (x) => x.amount),
      })),
      by_product: group(itemLines, (x) => x.product_id).map(([product_id, xs]) => ({
        product_id,
        name: xs[0].name,
        quantity: sum(xs, (x) => x.quantity),
        total: sum(xs, (x) => x.charged_amount),
      })),
      topups: flow("topup"),
      withdrawals: flow("withdraw"),
      bonuses: { count: bonuses.length, amount: sum(bonuses, (x) => x.amount) },
      generated_at: iso(clock.ms),
    };
  }

  return {
    /** The shared PRNG, and an integer in [min, max] drawn from it. */
    rnd,
    int,
    /** An id from a number (fixed-width hex). */
    hex,
    event,
    days,
    zones,
    ticketTypes,
    tickets,
    wristbands,
    sales,
    topups,
    scans,
    addTicket,
    addWristband,
    addSale,
    addTopup,
    addScan,
    touchTicket,
    setWristbandStatus,
    completeSale,
    summary,
    summaryBias,
    dayAt,
    /** Records the key can see (what the mirror must equal). */
    visible: {
      sales: () => [...sales.values()].filter((x) => !x.hidden),
      topups: () => [...topups.values()].filter((x) => !x.hidden),
      scans: () => [...scans.values()].filter((x) => !x.hidden),
    },
  };
}

export type FakeEvent = ReturnType<typeof createFakeEvent>;
