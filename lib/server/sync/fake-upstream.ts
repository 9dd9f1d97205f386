import "server-only";
import type { z } from "zod";
import {
  type Checkin,
  CheckinListQuery,
  type Day,
  type ErrorCode,
  type Event,
  errorCatalog,
  NoQuery,
  SalesListQuery,
  type SalesSummary,
  SalesSummaryQuery,
  type Ticket,
  TicketListQuery,
  type TicketType,
  type Topup,
  TopupListQuery,
  type Transaction,
  type Wristband,
  WristbandListQuery,
  type WristbandStatus,
  type Zone,
} from "@/lib/contract";
import type { FetchLike } from "@/lib/server/upstream/client";

/**
 * An in-process fake of the Integration API's read side, built on the contract's shapes, for the
 * faults the real service will not produce on demand: short and empty pages (records hidden from
 * the key interleaved with visible ones), 429s, 500s and dropped connections, refused cursors, late
 * records whose id falls below a client's cursor, records that change after creation, unknown fields.
 * It counts every request per fixed 60-second window of the read bucket, like the real limiter.
 *
 * Time is a FakeClock the test moves (and the worker's injected sleep moves).
 */

export class FakeClock {
  constructor(public ms: number) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number) {
    this.ms += Math.max(0, ms);
  }
  /** An injectable `sleep` that only moves this clock. */
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    this.advance(ms);
  };
}

/** mulberry32: a small seeded PRNG, in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultKind = "500" | "429" | "network" | "cursor400";
interface Fault {
  kind: FaultKind;
  match: (path: string, query: URLSearchParams) => boolean;
  times: number;
}

export interface FakeUpstreamOptions {
  apiKey: string;
  clock: FakeClock;
  seed?: number;
  /** Read requests per 60-second window (default 120). */
  readLimit?: number;
  /** A page scans at most this many records (hidden ones included), fewer at random (default 20). */
  maxScan?: number;
  /** Share of records hidden from the key (default 0.2). */
  hiddenShare?: number;
  /** Random faults per request, for the chaos phase. */
  chaos?: { p500?: number; p429?: number; pNetwork?: number };
  /** Size of the initial data set (default: 400 sales, 150 top-ups, 200 scans, 60 tickets). */
  initial?: { sales?: number; topups?: number; scans?: number; tickets?: number };
}

type Visible<T> = T & { hidden?: boolean };
const HOUR = 3_600_000;
const WINDOW_MS = 60_000;

export function createFakeUpstream(options: FakeUpstreamOptions) {
  const clock = options.clock;
  const rnd = seededRandom(options.seed ?? 1);
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
  const readLimit = options.readLimit ?? 120;
  const maxScan = options.maxScan ?? 20;
  const hiddenShare = options.hiddenShare ?? 0.2;
  const chaos = { p500: 0, p429: 0, pNetwork: 0, ...options.chaos };
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

  // ── rate limits, faults, counters ──────────────────────────────────────────────────────────
  const windows: { bucket: string; start: number; counted: number }[] = [];
  const current = new Map<string, { bucket: string; start: number; counted: number }>();
  /** requests: all; counted: taken from the read bucket; rateLimited: genuine 429s (quota spent); faults: injected. */
  const stats = { requests: 0, counted: 0, rateLimited: 0, faults: 0, byPath: new Map<string, number>() };
  const faults: Fault[] = [];

  function take(bucket: string, limit: number) {
    let w = current.get(bucket);
    if (!w || clock.ms - w.start >= WINDOW_MS) {
      w = { bucket, start: clock.ms, counted: 0 };
      current.set(bucket, w);
      windows.push(w);
    }
    const allowed = w.counted < limit;
    if (allowed) w.counted++;
    const reset = Math.max(1, Math.ceil((w.start + WINDOW_MS - clock.ms) / 1000));
    return {
      allowed,
      headers: {
        "x-ratelimit-limit": String(limit),
        "x-ratelimit-remaining": String(Math.max(0, limit - w.counted)),
        "x-ratelimit-reset": String(reset),
      },
      reset,
    };
  }

  let requestNo = 0;
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: {
        "content-type": "application/json",
        "x-request-id": `req_${(++requestNo).toString(16)}`,
        ...headers,
      },
    });
  const fail = (code: ErrorCode, message: string, headers: Record<string, string> = {}, param?: string) => {
    const { status, type } = errorCatalog[code];
    const requestId = `req_f${(++requestNo).toString(16)}`;
    return new Response(
      JSON.stringify({ error: { type, code, message, ...(param ? { param } : {}), request_id: requestId } }),
      { status, headers: { "content-type": "application/json", "x-request-id": requestId, ...headers } },
    );
  };

  // Unknown fields everywhere: a client must drop them, never fail.
  const decorate = <T extends object>(item: T) => {
    const { hidden: _, ...rest } = item as T & { hidden?: boolean };
    return { ...rest, livemode: false, metadata: { source: "fake" } };
  };
  const list = (data: object[], hasMore: boolean, cursor: string | null, url: string) => ({
    object: "list",
    data: data.map(decorate),
    has_more: hasMore,
    next_cursor: hasMore ? cursor : null,
    url,
    total_count: -1,
  });

  /** Pages like a restricted key: a page scans records in id order, hidden ones included. */
  function page<T extends { id: string; hidden?: boolean }>(
    all: Iterable<T>,
    filter: (x: T) => boolean,
    q: { limit?: number; starting_after?: string },
    url: string,
  ) {
    const candidates = [...all]
      .filter((x) => (!q.starting_after || x.id > q.starting_after) && filter(x))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const scan = Math.min(q.limit ?? 50, int(1, maxScan));
    const scanned = candidates.slice(0, scan);
    const rest = candidates.slice(scan);
    const hasMore = rest.some((x) => !x.hidden);
    const data = scanned.filter((x) => !x.hidden);
    return list(data, hasMore, scanned.length ? scanned[scanned.length - 1].id : null, url);
  }

  const visibleDay = (dayId: string | undefined) => !dayId || days.some((d) => d.id === dayId);
  const since = (at: Date | undefined, field: string) => (x: Record<string, unknown>) =>
    !at || Date.parse(x[field] as string) >= at.getTime();

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

  function parse<S extends z.ZodType>(schema: S, search: URLSearchParams): z.infer<S> | Response {
    const result = schema.safeParse(Object.fromEntries(search));
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    if (issue.code === "unrecognized_keys") {
      return fail("unknown_parameter", `Unknown parameter ${issue.keys[0]}.`, {}, issue.keys[0]);
    }
    return fail("invalid_parameter", issue.message, {}, String(issue.path[0] ?? ""));
  }

  function route(path: string, search: URLSearchParams, url: string): Response {
    const q = <S extends z.ZodType>(schema: S) => parse(schema, search);
    if (
      path === "/ping" ||
      path === "/event" ||
      path === "/days" ||
      path === "/zones" ||
      path === "/ticket-types"
    ) {
      const r = q(NoQuery);
      if (r instanceof Response) return r;
      if (path === "/event") return reply(200, decorate(event));
      if (path === "/days") return reply(200, { object: "list", data: days.map(decorate) });
      if (path === "/zones") return reply(200, { object: "list", data: zones.map(decorate) });
      if (path === "/ticket-types") return reply(200, { object: "list", data: ticketTypes.map(decorate) });
      return reply(200, {
        object: "ping",
        ok: true,
        environment: "test",
        event: { id: event.id, name: event.name },
        key: {
          id: hex(1),
          name: "fake key",
          scopes: ["event.read", "tickets.read", "cashless.read", "checkins.read", "reports.read"],
          restrictions: { ticket_type_ids: [], day_ids: [] },
          rate_limits: { read: readLimit, write: 20, checkin: 60, access: 120 },
        },
      });
    }
    if (path === "/tickets") {
      const r = q(TicketListQuery);
      if (r instanceof Response) return r;
      return reply(
        200,
        page(
          tickets.values(),
          (x) => (!r.status || x.status === r.status) && since(r.updated_since, "updated_at")(x),
          r,
          url,
        ),
      );
    }
    if (path === "/wristbands") {
      const r = q(WristbandListQuery);
      if (r instanceof Response) return r;
      return reply(
        200,
        page(
          wristbands.values(),
          (x) => (!r.status || x.status === r.status) && since(r.updated_since, "updated_at")(x),
          r,
          url,
        ),
      );
    }
    const m = path.match(/^\/(tickets|wristbands)\/([^/]+)$/);
    if (m) {
      const r = q(NoQuery);
      if (r instanceof Response) return r;
      const code = decodeURIComponent(m[2]);
      if (m[1] === "tickets") {
        const t = [...tickets.values()].find((x) => x.code === code);
        return t ? reply(200, decorate(t)) : fail("ticket_not_found", "No ticket with this code.");
      }
      const w = [...wristbands.values()].find((x) => x.nfc === code || x.uhf === code);
      return w ? reply(200, decorate(w)) : fail("wristband_not_found", "No wristband with this code.");
    }
    if (path === "/transactions" || path === "/topups" || path === "/checkins") {
      const r = q(
        path === "/topups" ? TopupListQuery : path === "/checkins" ? CheckinListQuery : SalesListQuery,
      ) as (z.infer<typeof TopupListQuery> & z.infer<typeof CheckinListQuery>) | Response;
      if (r instanceof Response) return r;
      if (!visibleDay(r.day_id)) return fail("invalid_parameter", "Unknown day.", {}, "day_id");
      const match = (x: { day_id: string; occurred_at: string }) =>
        (!r.day_id || x.day_id === r.day_id) && since(r.since, "occurred_at")(x);
      if (path === "/transactions") return reply(200, page(sales.values(), match, r, url));
      if (path === "/topups")
        return reply(
          200,
          page(topups.values(), (x) => match(x) && (!r.direction || x.direction === r.direction), r, url),
        );
      return reply(
        200,
        page(scans.values(), (x) => match(x) && (!r.zone_id || x.zone?.id === r.zone_id), r, url),
      );
    }
    if (path === "/reports/sales-summary") {
      const r = q(SalesSummaryQuery);
      if (r instanceof Response) return r;
      if (!visibleDay(r.day_id)) return fail("invalid_parameter", "Unknown day.", {}, "day_id");
      return reply(200, { ...summary(r.day_id ?? null), extra_section: { hello: "world" } });
    }
    return fail("route_not_found", `No route ${path}.`);
  }

  const fetch: FetchLike = async (input, init) => {
    stats.requests++;
    const url = new URL(input);
    const path = url.pathname.replace(/^\/v1/, "");
    stats.byPath.set(path, (stats.byPath.get(path) ?? 0) + 1);
    if ((init.method ?? "GET") !== "GET") return fail("method_not_allowed", "The fake is read-only.");
    if (new Headers(init.headers).get("authorization") !== `Bearer ${options.apiKey}`) {
      return fail("invalid_api_key", "Unknown key.");
    }

    const fault = faults.find((f) => f.times > 0 && f.match(path, url.searchParams));
    let kind: FaultKind | null = fault ? fault.kind : null;
    if (fault) fault.times--;
    if (!kind) {
      const roll = rnd();
      if (roll < chaos.pNetwork) kind = "network";
      else if (roll < chaos.pNetwork + chaos.p429) kind = "429";
      else if (roll < chaos.pNetwork + chaos.p429 + chaos.p500) kind = "500";
    }
    if (kind === "network") {
      stats.faults++;
      throw new TypeError("fetch failed (fake: connection reset)");
    }
    if (kind === "429") {
      // Refused before the bucket: nothing counted, as the real limiter does.
      stats.faults++;
      const w = current.get("read");
      const remaining = w && clock.ms - w.start < WINDOW_MS ? Math.max(0, readLimit - w.counted) : readLimit;
      return fail("rate_limit_exceeded", "Too many requests (fake).", {
        "retry-after": "2",
        "x-ratelimit-limit": String(readLimit),
        "x-ratelimit-remaining": String(remaining),
        "x-ratelimit-reset": "2",
      });
    }

    const limit = take("read", readLimit);
    if (!limit.allowed) {
      stats.rateLimited++;
      return fail("rate_limit_exceeded", "Rate limit exceeded.", {
        ...limit.headers,
        "retry-after": String(limit.reset),
      });
    }
    stats.counted++;
    if (kind === "500") {
      stats.faults++;
      return fail("internal_error", "Something broke (fake).", limit.headers);
    }
    if (kind === "cursor400" && url.searchParams.has("starting_after")) {
      stats.faults++;
      return fail("invalid_parameter", "This cursor has expired (fake).", limit.headers, "starting_after");
    }
    const response = route(path, url.searchParams, url.pathname + url.search);
    for (const [name, value] of Object.entries(limit.headers)) response.headers.set(name, value);
    return response;
  };

  return {
    fetch,
    clock,
    event,
    days,
    zones,
    ticketTypes,
    tickets,
    wristbands,
    sales,
    topups,
    scans,
    stats,
    readLimit,
    chaos,
    /** Every read window so far: start and the requests it counted. */
    windows: () => windows.filter((w) => w.bucket === "read"),
    /** The next `times` requests matching `match` fail with `kind`. */
    inject(kind: FaultKind, match: Fault["match"] = () => true, times = 1) {
      faults.push({ kind, match, times });
    },
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

export type FakeUpstream = ReturnType<typeof createFakeUpstream>;
