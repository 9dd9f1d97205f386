import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  Checkin,
  Day,
  SalesSummary,
  Ticket,
  TicketType,
  Topup,
  Transaction,
  Wristband,
} from "../../lib/contract/resources";
import { newId } from "../ids";
import { expectError } from "../testing/expect-api";
import { canonicalSummary, summaryFromLists, walkPages } from "../testing/read-model";
import { createTestApi, type TestApi } from "../testing/test-api";

/**
 * Keys restricted by ticket type, by day, and by both: "records outside scope behave as if they did
 * not exist". Every list is walked and every ticket and wristband fetched by code, and the result
 * compared with the scope rules of the decisions computed here, in plain JS, over the whole store.
 */

const READ_SCOPES = ["event.read", "tickets.read", "checkins.read", "cashless.read", "reports.read"] as const;

interface KeySpec {
  name: string;
  /** Ticket type names (null: unrestricted). */
  types: string[] | null;
  /** Indices into the event's days (null: unrestricted). */
  days: number[] | null;
}

const KEYS: KeySpec[] = [
  { name: "by ticket type", types: ["Day Ticket", "VIP 4-Day"], days: null },
  { name: "by day", types: null, days: [1] },
  { name: "by ticket type and day", types: ["4-Day Pass", "Day Ticket"], days: [0, 2] },
];

interface Data {
  tickets: { id: string; code: string; ticket_type_id: string; valid_day_ids: string[] }[];
  wristbands: {
    id: string;
    nfc: string;
    uhf: string | null;
    ticket_id: string | null;
    valid_day_ids: string[];
  }[];
  sales: { id: string; day_id: string; wristband_id: string; status: string }[];
  topups: { id: string; day_id: string; wristband_id: string }[];
  scans: { id: string; day_id: string; wristband_id: string | null }[];
}

interface Scope {
  typeIds: string[] | null;
  dayIds: string[] | null;
  tickets: Data["tickets"];
  wristbands: Data["wristbands"];
  sales: Data["sales"];
  topups: Data["topups"];
  scans: Data["scans"];
  ticketIn: (t: Data["tickets"][number]) => boolean;
  wristbandIn: (w: Data["wristbands"][number]) => boolean;
}

/** The decisions' scope rules, stated independently of the SQL predicates of the store. */
function scopeOf(data: Data, typeIds: string[] | null, dayIds: string[] | null): Scope {
  const meets = (ids: string[], allowed: string[]) => ids.some((id) => allowed.includes(id));
  const ticketById = new Map(data.tickets.map((t) => [t.id, t]));
  const wristbandById = new Map(data.wristbands.map((w) => [w.id, w]));
  const ticketIn = (t: Data["tickets"][number]) =>
    (!typeIds || typeIds.includes(t.ticket_type_id)) && (!dayIds || meets(t.valid_day_ids, dayIds));
  // A wristband follows its ticket; an anonymous one follows its own days and is out of scope for
  // a key restricted by ticket type.
  const wristbandIn = (w: Data["wristbands"][number]) =>
    w.ticket_id !== null
      ? ticketIn(ticketById.get(w.ticket_id)!)
      : !typeIds && (!dayIds || meets(w.valid_day_ids, dayIds));
  // Sale, top-up, scan: its day is allowed, and (for a type restriction) its wristband is in scope.
  const recordIn = (r: { day_id: string; wristband_id: string | null }) =>
    (!dayIds || dayIds.includes(r.day_id)) &&
    (!typeIds || (r.wristband_id !== null && wristbandIn(wristbandById.get(r.wristband_id)!)));
  return {
    typeIds,
    dayIds,
    tickets: data.tickets.filter(ticketIn),
    wristbands: data.wristbands.filter(wristbandIn),
    sales: data.sales.filter(recordIn),
    topups: data.topups.filter(recordIn),
    scans: data.scans.filter(recordIn),
    ticketIn,
    wristbandIn,
  };
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

let api: TestApi;
let data: Data;
let allDayIds: string[];
let fullKey: string;
const keys = new Map<string, { key: string; scope: Scope }>();

async function loadData(): Promise<Data> {
  return {
    tickets: await api.db.query("select id, code, ticket_type_id, valid_day_ids from tickets order by id"),
    wristbands: await api.db.query(
      "select id, nfc, uhf, ticket_id, valid_day_ids from wristbands order by id",
    ),
    sales: await api.db.query("select id, day_id, wristband_id, status from sales order by id"),
    topups: await api.db.query("select id, day_id, wristband_id from topups order by id"),
    scans: await api.db.query("select id, day_id, wristband_id from scans order by id"),
  };
}

/** Anonymous wristbands valid on one day only, with money movements, so the days rule on them matters. */
async function addAnonymousWristbands() {
  const days = api.services.catalog.rows.days;
  for (const [i, dayIndex] of [0, 2, 1].entries()) {
    const day = days[dayIndex];
    const id = newId();
    const at = new Date(new Date(day.starts_at).getTime() + 3_600_000);
    await api.db.query(
      `insert into wristbands (id, nfc, uhf, status, balance, promo_balance, attendee_name, ticket_id, zone_ids,
         valid_day_ids, created_at, updated_at)
       values ($1, $2, $3, 'active', 1000, 0, null, null, '{}', $4, $5, $5)`,
      [id, `ANON-TEST-${i}`, `UHF-ANON-TEST-${i}`, [day.id], at],
    );
    await api.db.query(
      `insert into topups (id, direction, amount, previous_balance, new_balance, payment_method, nature, status,
         wristband_id, day_id, device_id, occurred_at, created_at)
       values ($1, 'topup', 1500, 0, 1500, 'cash', 'paid', 'completed', $2, $3, 'topup-01', $4, $4)`,
      [newId(), id, day.id, at],
    );
    // A sale on the wristband's day, and one on another day (an offline terminal's clock, say): for
    // a key restricted by day only, a record follows its own day_id.
    for (const saleDay of [day, days[(dayIndex + 1) % days.length]]) {
      await api.db.query(
        `insert into sales (id, status, type, payment_method, total, total_base, total_tax, tax_breakdown, items,
           wristband_id, day_id, device_id, occurred_at, created_at)
         values ($1, 'completed', 'cart', 'wristband', 500, 413, 87,
           '[{"tax_type":"VAT","rate":21,"base":413,"amount":87}]'::jsonb,
           '[{"product_id":"5eed00000000000000000101","name":"Beer 33 cl","quantity":1,"unit_price":500,"charged_amount":500,"included_quantity":0}]'::jsonb,
           $2, $3, 'bar-01', $4, $4)`,
        [newId(), id, saleDay.id, at],
      );
    }
  }
}

beforeAll(async () => {
  api = await createTestApi();
  await addAnonymousWristbands();
  data = await loadData();
  const catalog = api.services.catalog;
  allDayIds = catalog.rows.days.map((d) => d.id);
  const typeId = (name: string) => {
    const type = catalog.rows.ticketTypes.find((t) => t.name === name);
    if (!type) throw new Error(`no ticket type ${name}`);
    return type.id;
  };
  fullKey = (await api.createKey({ scopes: [...READ_SCOPES], rate_limits: { read: 100000 } })).key;
  for (const spec of KEYS) {
    const typeIds = spec.types?.map(typeId) ?? null;
    const dayIds = spec.days?.map((i) => allDayIds[i]) ?? null;
    const created = await api.createKey({
      name: spec.name,
      scopes: [...READ_SCOPES],
      restrictions: { ticket_type_ids: typeIds ?? [], day_ids: dayIds ?? [] },
      rate_limits: { read: 100000 },
    });
    keys.set(spec.name, { key: created.key, scope: scopeOf(data, typeIds, dayIds) });
  }
});

afterAll(async () => {
  await api?.close();
});

const q = encodeURIComponent;

describe.each(KEYS)("a key restricted $name", (spec) => {
  const ctx = () => keys.get(spec.name)!;

  it("has out-of-scope records of every kind in the data (else this proves nothing)", () => {
    const { scope } = ctx();
    for (const kind of ["tickets", "wristbands", "sales", "topups", "scans"] as const) {
      expect(scope[kind].length, `${kind} in scope`).toBeGreaterThan(0);
      expect(scope[kind].length, `${kind} out of scope`).toBeLessThan(data[kind].length);
    }
  });

  it("sees exactly its days and ticket types; any other day_id is an invalid parameter", async () => {
    const { key, scope } = ctx();
    const days = await api.get<{ data: Day[] }>("/v1/days", key);
    expect(days.status).toBe(200);
    expect(days.body.data.map((d) => d.id)).toEqual(
      allDayIds.filter((d) => !scope.dayIds || scope.dayIds.includes(d)),
    );

    const types = await api.get<{ data: TicketType[] }>("/v1/ticket-types", key);
    expect(types.status).toBe(200);
    const allTypes = api.services.catalog.rows.ticketTypes.map((t) => t.id);
    expect(types.body.data.map((t) => t.id).sort()).toEqual(
      allTypes.filter((t) => !scope.typeIds || scope.typeIds.includes(t)).sort(),
    );

    const hidden = allDayIds.filter((d) => scope.dayIds && !scope.dayIds.includes(d));
    const inScopeWristband = scope.wristbands[0];
    const unknownDay = "0123456789abcdef01234567";
    for (const day of [...hidden, unknownDay]) {
      for (const path of [
        "/v1/transactions",
        "/v1/topups",
        "/v1/checkins",
        "/v1/reports/sales-summary",
        `/v1/wristbands/${q(inScopeWristband.nfc)}/transactions`,
      ]) {
        const res = await api.get(`${path}?day_id=${day}`, key);
        expectError(res, 400, "invalid_request_error", "invalid_parameter", "day_id");
      }
    }
  });

  it("lists exactly the tickets in scope and finds no other by code", async () => {
    const { key, scope } = ctx();
    const walk = await walkPages<Ticket>(api, "/v1/tickets", key, 37);
    expect(walk.items.map((t) => t.id)).toEqual(ids(scope.tickets));
    for (const t of walk.items) {
      if (scope.typeIds) expect(scope.typeIds).toContain(t.ticket_type.id);
      expect(t.valid_days.length).toBeGreaterThan(0);
      for (const d of t.valid_days) if (scope.dayIds) expect(scope.dayIds).toContain(d.id);
    }
    // Every ticket of the event, by code: in scope → itself, else as if it did not exist.
    for (const t of data.tickets) {
      const res = await api.get<Ticket>(`/v1/tickets/${q(t.code)}`, key);
      if (scope.ticketIn(t)) {
        expect(res.status, t.code).toBe(200);
        expect(res.body.id).toBe(t.id);
      } else {
        expectError(res, 404, "not_found_error", "ticket_not_found");
      }
    }
    // The bonus quote by code applies the same scope.
    for (const t of data.tickets.filter((_, i) => i % 7 === 0)) {
      const res = await api.get(`/v1/topup-bonuses/quote?amounts=5000&code=${q(t.code)}`, key);
      if (scope.ticketIn(t)) expect(res.status, t.code).toBe(200);
      else expectError(res, 400, "invalid_request_error", "invalid_parameter", "code");
    }
  });

  it("lists exactly the wristbands in scope and finds no other by NFC or UHF", async () => {
    const { key, scope } = ctx();
    const walk = await walkPages<Wristband>(api, "/v1/wristbands", key, 37);
    expect(walk.items.map((w) => w.id)).toEqual(ids(scope.wristbands));
    const anonymous = data.wristbands.filter((w) => w.ticket_id === null);
    expect(anonymous.length).toBeGreaterThan(1);
    const anonymousSeen = walk.items.filter((w) => w.attendee.anonymous).map((w) => w.id);
    if (scope.typeIds) expect(anonymousSeen).toEqual([]);
    else expect(anonymousSeen.length).toBeGreaterThan(0);
    for (const w of walk.items)
      for (const d of w.valid_days) if (scope.dayIds) expect(scope.dayIds).toContain(d);

    for (const w of data.wristbands) {
      for (const code of [w.nfc, w.uhf]) {
        if (code === null) continue;
        const res = await api.get<Wristband>(`/v1/wristbands/${q(code)}`, key);
        const sales = await api.get(`/v1/wristbands/${q(code)}/transactions?limit=1`, key);
        if (scope.wristbandIn(w)) {
          expect(res.status, code).toBe(200);
          expect(res.body.id).toBe(w.id);
          expect(sales.status).toBe(200);
        } else {
          expectError(res, 404, "not_found_error", "wristband_not_found");
          expectError(sales, 404, "not_found_error", "wristband_not_found");
        }
      }
    }
  });

  it("lists a wristband's sales within scope only", async () => {
    const { key, scope } = ctx();
    const counts = new Map<string, number>();
    for (const s of data.sales) counts.set(s.wristband_id, (counts.get(s.wristband_id) ?? 0) + 1);
    const busiest = [...scope.wristbands].sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0));
    for (const w of [...busiest.slice(0, 6), ...busiest.filter((x) => x.ticket_id === null)]) {
      const walk = await walkPages<Transaction>(api, `/v1/wristbands/${q(w.nfc)}/transactions`, key, 9);
      expect(walk.items.map((s) => s.id)).toEqual(ids(scope.sales.filter((s) => s.wristband_id === w.id)));
    }
  });

  it("lists exactly the sales, top-ups and scans in scope, per day too", async () => {
    const { key, scope } = ctx();
    const lists = [
      ["/v1/transactions", scope.sales],
      ["/v1/topups", scope.topups],
      ["/v1/checkins", scope.scans],
    ] as const;
    for (const [path, expected] of lists) {
      const walk = await walkPages<Transaction | Topup | Checkin>(api, path, key, 37);
      expect(
        walk.items.map((r) => r.id),
        path,
      ).toEqual(ids(expected));
      for (const day of scope.dayIds ?? allDayIds) {
        const perDay = await walkPages<Transaction | Topup | Checkin>(api, `${path}?day_id=${day}`, key, 200);
        expect(
          perDay.items.map((r) => r.id),
          `${path}?day_id=${day}`,
        ).toEqual(ids(expected.filter((r) => r.day_id === day)));
      }
    }
  });

  it("summarises exactly what it can list, which differs from the unrestricted summary", async () => {
    const { key, scope } = ctx();
    const outOfScopeCompleted = (day: string | null) => {
      const visible = new Set(scope.sales.map((s) => s.id));
      return data.sales.filter(
        (s) => s.status === "completed" && !visible.has(s.id) && (!day || s.day_id === day),
      );
    };
    for (const day of [null, ...(scope.dayIds ?? allDayIds)]) {
      const filter = day ? `?day_id=${day}` : "";
      const summary = await api.get<SalesSummary>(`/v1/reports/sales-summary${filter}`, key);
      expect(summary.status, summary.text).toBe(200);
      expect(summary.body.day_id).toBe(day);
      const sales = (await walkPages<Transaction>(api, `/v1/transactions${filter}`, key, 200)).items;
      const topups = (await walkPages<Topup>(api, `/v1/topups${filter}`, key, 200)).items;
      expect(canonicalSummary(summary.body), `summary ${filter}`).toEqual(summaryFromLists(sales, topups));

      const full = await api.get<SalesSummary>(`/v1/reports/sales-summary${filter}`, fullKey);
      if (outOfScopeCompleted(day).length > 0) {
        expect(summary.body.sales.count).toBeLessThan(full.body.sales.count);
        expect(canonicalSummary(summary.body)).not.toEqual(canonicalSummary(full.body));
      } else {
        const mine = canonicalSummary(summary.body);
        const all = canonicalSummary(full.body);
        expect([mine.sales, mine.by_payment_method, mine.by_tax, mine.by_product]).toEqual([
          all.sales,
          all.by_payment_method,
          all.by_tax,
          all.by_product,
        ]);
      }
    }
    expect(outOfScopeCompleted(null).length).toBeGreaterThan(0);
  });
});

describe("the unrestricted key", () => {
  it("sees everything, and its summary equals the sums of its lists", async () => {
    expect((await walkPages<Ticket>(api, "/v1/tickets", fullKey, 200)).items.map((t) => t.id)).toEqual(
      ids(data.tickets),
    );
    expect((await walkPages<Wristband>(api, "/v1/wristbands", fullKey, 200)).items.map((t) => t.id)).toEqual(
      ids(data.wristbands),
    );
    const sales = (await walkPages<Transaction>(api, "/v1/transactions", fullKey, 200)).items;
    const topups = (await walkPages<Topup>(api, "/v1/topups", fullKey, 200)).items;
    expect(sales.map((s) => s.id)).toEqual(ids(data.sales));
    expect(topups.map((s) => s.id)).toEqual(ids(data.topups));
    const summary = await api.get<SalesSummary>("/v1/reports/sales-summary", fullKey);
    expect(canonicalSummary(summary.body)).toEqual(summaryFromLists(sales, topups));
  });
});
