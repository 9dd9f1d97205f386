import { DateTime } from "luxon";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { CreateKeyRequest } from "../../lib/contract/admin";
import * as r from "../../lib/contract/resources";
import { expectAscendingIds, expectCommonHeaders, expectError, expectOk } from "../testing/expect-api";
import { createTestApi, TEST_NOW, type TestApi } from "../testing/test-api";

/**
 * Every read endpoint of /v1 against the real app on a seeded PGlite store: responses parse with
 * the contract schemas and their values are checked against SQL on the same store.
 */

let api: TestApi;

beforeAll(async () => {
  api = await createTestApi();
});

afterAll(async () => {
  await api?.close();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const READ_SCOPES = ["event.read", "tickets.read", "checkins.read", "cashless.read", "reports.read"] as const;

type KeyOptions = Partial<Omit<CreateKeyRequest, "restrictions">> & {
  restrictions?: { ticket_type_ids?: string[]; day_ids?: string[] };
};

/** A fresh key with every read scope and a quota no test can exhaust. */
async function readKey(options: KeyOptions = {}): Promise<string> {
  const created = await api.createKey({
    scopes: [...READ_SCOPES],
    rate_limits: { read: 100_000 },
    ...options,
    restrictions: {
      ticket_type_ids: options.restrictions?.ticket_type_ids ?? [],
      day_ids: options.restrictions?.day_ids ?? [],
    },
  });
  return created.key;
}

const q = <T>(sql: string, params?: unknown[]) => api.db.query<T>(sql, params);
const ids = (items: { id: string }[]) => items.map((i) => i.id);
const sqlIds = async (sql: string, params?: unknown[]) => ids(await q<{ id: string }>(sql, params));
const enc = encodeURIComponent;
const sorted = (values: string[]) => [...values].sort();

/** "tK-aBcD…": every other letter in the other case, as people type from paper. */
const mixedCase = (code: string) =>
  [...code].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join("");

/** `2026-07-11T22:30:00.000+02:00`: the same instant written with a UTC offset. */
const withOffset = (d: Date | string, zone: string) =>
  DateTime.fromJSDate(new Date(d)).setZone(zone).toISO() as string;

const TicketList = r.ListEnvelope(r.Ticket);
const WristbandList = r.ListEnvelope(r.Wristband);
const TransactionList = r.ListEnvelope(r.Transaction);
const TopupList = r.ListEnvelope(r.Topup);
const CheckinList = r.ListEnvelope(r.Checkin);

// --------------------------------------------------------------------------------------------
// Rows as stored, and what the API must make of them.

interface TicketSql {
  id: string;
  code: string;
  status: string;
  ticket_type_id: string;
  type_name: string;
  attendee_name: string;
  attendee_email: string;
  document_type: string | null;
  document_number: string | null;
  birth: string | null;
  valid_day_ids: string[];
  extra_zone_ids: string[];
  wristband_id: string | null;
  nfc: string | null;
  checked_in_at: string | null;
  created_at: string;
  updated_at: string;
}
const TICKETS_SQL = `select t.id, t.code, t.status, t.ticket_type_id, tt.name as type_name, t.attendee_name,
  t.attendee_email, t.document_type, t.document_number, to_char(t.birth_date, 'YYYY-MM-DD') as birth,
  t.valid_day_ids, t.extra_zone_ids, t.wristband_id, w.nfc, t.checked_in_at, t.created_at, t.updated_at
  from tickets t join ticket_types tt on tt.id = t.ticket_type_id left join wristbands w on w.id = t.wristband_id`;

const TICKET_KEYS = sorted([
  "object",
  "id",
  "code",
  "status",
  "ticket_type",
  "attendee",
  "valid_days",
  "extra_zones",
  "wristband",
  "checked_in_at",
  "created_at",
  "updated_at",
]);

function expectTicket(raw: unknown, row: TicketSql) {
  const t = r.Ticket.parse(raw);
  // The raw JSON: nothing beyond the documented fields (no document number, no birth date).
  const json = raw as { attendee: Record<string, unknown> };
  expect(sorted(Object.keys(json))).toEqual(TICKET_KEYS);
  expect(sorted(Object.keys(json.attendee))).toEqual(["document", "email", "name"]);
  expect(t).toMatchObject({
    object: "ticket",
    id: row.id,
    code: row.code,
    status: row.status,
    ticket_type: { id: row.ticket_type_id, name: row.type_name },
    attendee: {
      name: row.attendee_name,
      email: row.attendee_email,
      document: row.document_number
        ? { type: row.document_type, last4: row.document_number.slice(-4) }
        : null,
    },
    wristband: row.wristband_id ? { id: row.wristband_id, nfc: row.nfc } : null,
    checked_in_at: row.checked_in_at ? new Date(row.checked_in_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  });
  expect(sorted(ids(t.valid_days))).toEqual(sorted(row.valid_day_ids));
  for (const d of t.valid_days) expect(d.name).toBe(dayNames.get(d.id));
  expect(sorted(ids(t.extra_zones))).toEqual(sorted(row.extra_zone_ids));
  const text = JSON.stringify(raw);
  if (row.document_number && row.document_number.length > 4) expect(text).not.toContain(row.document_number);
  if (row.birth) expect(text).not.toContain(row.birth);
  expect(text).not.toMatch(/birth/i);
}

interface WristbandSql {
  id: string;
  nfc: string;
  uhf: string | null;
  status: string;
  balance: number;
  promo_balance: number;
  attendee_name: string | null;
  ticket_id: string | null;
  ticket_code: string | null;
  type_name: string | null;
  zone_ids: string[];
  valid_day_ids: string[];
  created_at: string;
  updated_at: string;
}
const WRISTBANDS_SQL = `select w.id, w.nfc, w.uhf, w.status, w.balance, w.promo_balance, w.attendee_name, w.ticket_id,
  t.code as ticket_code, tt.name as type_name, w.zone_ids, w.valid_day_ids, w.created_at, w.updated_at
  from wristbands w left join tickets t on t.id = w.ticket_id left join ticket_types tt on tt.id = t.ticket_type_id`;

function expectWristband(raw: unknown, row: WristbandSql) {
  const w = r.Wristband.parse(raw);
  expect(w).toMatchObject({
    object: "wristband",
    id: row.id,
    nfc: row.nfc,
    uhf: row.uhf,
    status: row.status,
    balance: row.balance,
    promo_balance: row.promo_balance,
    attendee: { name: row.attendee_name, anonymous: row.ticket_id === null },
    ticket: row.ticket_id ? { code: row.ticket_code, ticket_type: row.type_name } : null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  });
  expect(sorted(ids(w.allowed_zones))).toEqual(sorted([...new Set(row.zone_ids)]));
  expect(sorted(w.valid_days)).toEqual(sorted(row.valid_day_ids));
}

interface SaleSql {
  id: string;
  status: string;
  type: string;
  payment_method: string;
  total: number;
  total_base: number;
  total_tax: number;
  tax_breakdown: r.TaxLine[];
  items: r.SaleItem[];
  wristband_id: string;
  day_id: string;
  device_id: string | null;
  occurred_at: string;
  created_at: string;
}

function expectTransaction(raw: unknown, row: SaleSql) {
  const t = r.Transaction.parse(raw);
  expect(t).toEqual({
    object: "transaction",
    id: row.id,
    status: row.status,
    type: row.type,
    payment_method: row.payment_method,
    total: row.total,
    total_base: row.total_base,
    total_tax: row.total_tax,
    tax_breakdown: row.tax_breakdown,
    items: row.items,
    wristband_id: row.wristband_id,
    day_id: row.day_id,
    device_id: row.device_id,
    occurred_at: new Date(row.occurred_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  });
  // The decided money rules hold on what the API returns.
  expect(t.total).toBe(t.total_base + t.total_tax);
  expect(t.items.reduce((s, i) => s + i.charged_amount, 0)).toBe(t.total);
  for (const i of t.items) expect(i.charged_amount).toBe((i.quantity - i.included_quantity) * i.unit_price);
}

interface TopupSql {
  id: string;
  direction: string;
  amount: number;
  previous_balance: number;
  new_balance: number;
  payment_method: string;
  nature: string;
  status: string;
  wristband_id: string;
  day_id: string;
  device_id: string | null;
  occurred_at: string;
  created_at: string;
}

function expectTopup(raw: unknown, row: TopupSql) {
  expect(r.Topup.parse(raw)).toEqual({
    object: "topup",
    id: row.id,
    direction: row.direction,
    amount: row.amount,
    previous_balance: row.previous_balance,
    new_balance: row.new_balance,
    payment_method: row.payment_method,
    nature: row.nature,
    status: row.status,
    wristband_id: row.wristband_id,
    day_id: row.day_id,
    device_id: row.device_id,
    occurred_at: new Date(row.occurred_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  });
}

interface ScanSql {
  id: string;
  kind: string;
  allowed: boolean;
  reason: string | null;
  ticket_code: string | null;
  wristband_id: string | null;
  zone_id: string | null;
  device_id: string | null;
  day_id: string;
  occurred_at: string;
  created_at: string;
}

function expectCheckin(raw: unknown, row: ScanSql) {
  expect(r.Checkin.parse(raw)).toEqual({
    object: "checkin",
    id: row.id,
    kind: row.kind,
    allowed: row.allowed,
    reason: row.reason,
    ticket_code: row.ticket_code,
    wristband_id: row.wristband_id,
    zone: row.zone_id ? { id: row.zone_id, name: zoneNames.get(row.zone_id) } : null,
    device_id: row.device_id,
    day_id: row.day_id,
    occurred_at: new Date(row.occurred_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  });
}

let dayNames: Map<string, string>;
let zoneNames: Map<string, string>;
let dayIds: string[];

beforeAll(async () => {
  const days = await q<{ id: string; name: string }>("select id, name from days order by starts_at");
  dayNames = new Map(days.map((d) => [d.id, d.name]));
  dayIds = ids(days);
  const zones = await q<{ id: string; name: string }>("select id, name from zones");
  zoneNames = new Map(zones.map((z) => [z.id, z.name]));
});

// --------------------------------------------------------------------------------------------

describe("GET /v1/ping", () => {
  it("describes the key, the event and the environment", async () => {
    const created = await api.createKey({
      name: "ping probe",
      scopes: ["tickets.read", "reports.read"],
      restrictions: { ticket_type_ids: [], day_ids: [dayIds[1]] },
      rate_limits: { read: 77 },
    });
    const res = await api.get("/v1/ping", created.key);
    const ping = expectOk(res, r.Ping);
    const [event] = await q<{ id: string; name: string }>("select id, name from event");
    expect(ping).toEqual({
      object: "ping",
      ok: true,
      environment: "test",
      event: { id: event.id, name: event.name },
      key: {
        id: created.id,
        name: "ping probe",
        scopes: ["tickets.read", "reports.read"],
        restrictions: { ticket_type_ids: [], day_ids: [dayIds[1]] },
        rate_limits: { read: 77, write: 20, checkin: 60, access: 120 },
      },
    });
  });

  it("gives every response its own request id", async () => {
    const key = await readKey();
    const a = expectCommonHeaders(await api.get("/v1/ping", key));
    const b = expectCommonHeaders(await api.get("/v1/ping", key));
    expect(a).not.toBe(b);
  });
});

describe("event configuration", () => {
  it("GET /v1/event returns currency, time zone and the span of the days", async () => {
    const key = await readKey();
    const event = expectOk(await api.get("/v1/event", key), r.Event);
    const [row] = await q<{ id: string; name: string; currency: string; time_zone: string }>(
      "select id, name, currency, time_zone from event",
    );
    const [span] = await q<{ starts_at: string; ends_at: string }>(
      "select min(starts_at) as starts_at, max(ends_at) as ends_at from days",
    );
    expect(event).toEqual({
      object: "event",
      id: row.id,
      name: row.name,
      currency: row.currency,
      time_zone: row.time_zone,
      starts_at: new Date(span.starts_at).toISOString(),
      ends_at: new Date(span.ends_at).toISOString(),
      environment: "test",
    });
  });

  it("GET /v1/days lists every day by start, with object and data only", async () => {
    const key = await readKey();
    const res = await api.get("/v1/days", key);
    const days = expectOk(res, r.PlainList(r.Day));
    expect(sorted(Object.keys(res.body as object))).toEqual(["data", "object"]);
    const rows = await q<{ id: string; name: string; date: string; starts_at: string; ends_at: string }>(
      "select id, name, to_char(date, 'YYYY-MM-DD') as date, starts_at, ends_at from days order by starts_at",
    );
    expect(rows.length).toBe(4);
    expect(days.data).toEqual(
      rows.map((d) => ({
        object: "day",
        id: d.id,
        name: d.name,
        date: d.date,
        starts_at: new Date(d.starts_at).toISOString(),
        ends_at: new Date(d.ends_at).toISOString(),
      })),
    );
  });

  it("GET /v1/zones lists every zone", async () => {
    const key = await readKey();
    const zones = expectOk(await api.get("/v1/zones", key), r.PlainList(r.Zone));
    const rows = await q<{ id: string; name: string }>("select id, name from zones order by id");
    expect(
      zones.data
        .map((z) => ({ id: z.id, name: z.name, object: z.object }))
        .sort((a, b) => (a.id < b.id ? -1 : 1)),
    ).toEqual(rows.map((z) => ({ ...z, object: "zone" })));
  });

  it("GET /v1/ticket-types lists every type with the zones it opens", async () => {
    const key = await readKey();
    const types = expectOk(await api.get("/v1/ticket-types", key), r.PlainList(r.TicketType));
    const rows = await q<{ id: string; name: string; zone_ids: string[] }>(
      "select id, name, zone_ids from ticket_types order by id",
    );
    expect(sorted(ids(types.data))).toEqual(ids(rows));
    for (const row of rows) {
      const type = types.data.find((t) => t.id === row.id)!;
      expect(type.name).toBe(row.name);
      expect(sorted(ids(type.zones))).toEqual(sorted(row.zone_ids));
      for (const z of type.zones) expect(z.name).toBe(zoneNames.get(z.id));
    }
  });
});

describe("GET /v1/tickets", () => {
  it("walks every ticket by ascending id, each one matching the store", async () => {
    const key = await readKey();
    const items = await api.walk<r.Ticket>("/v1/tickets", key);
    const rows = await q<TicketSql>(`${TICKETS_SQL} order by t.id`);
    expect(rows.length).toBeGreaterThan(60);
    expect(ids(items)).toEqual(ids(rows));
    expectAscendingIds(items);
    rows.forEach((row, i) => {
      expectTicket(items[i], row);
    });
  });

  it("pages with limit, has_more and next_cursor, which is null on the last page", async () => {
    const key = await readKey();
    const all = await sqlIds("select id from tickets order by id");
    const n = all.length;

    const first = expectOk(await api.get("/v1/tickets?limit=7", key), TicketList);
    expect(ids(first.data)).toEqual(all.slice(0, 7));
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(all[6]);

    const second = expectOk(
      await api.get(`/v1/tickets?limit=7&starting_after=${first.next_cursor}`, key),
      TicketList,
    );
    expect(ids(second.data)).toEqual(all.slice(7, 14));
    expect(second.next_cursor).toBe(all[13]);

    // Exactly `limit` items left: the last page, no cursor.
    const last = expectOk(await api.get(`/v1/tickets?limit=2&starting_after=${all[n - 3]}`, key), TicketList);
    expect(ids(last.data)).toEqual(all.slice(n - 2));
    expect(last.has_more).toBe(false);
    expect(last.next_cursor).toBeNull();

    // One item more than `limit` left: one more page.
    const beforeLast = expectOk(
      await api.get(`/v1/tickets?limit=2&starting_after=${all[n - 4]}`, key),
      TicketList,
    );
    expect(ids(beforeLast.data)).toEqual(all.slice(n - 3, n - 1));
    expect(beforeLast.has_more).toBe(true);
    expect(beforeLast.next_cursor).toBe(all[n - 2]);

    const empty = expectOk(await api.get(`/v1/tickets?starting_after=${all[n - 1]}`, key), TicketList);
    expect(empty).toEqual({ object: "list", data: [], has_more: false, next_cursor: null });
  });

  it("defaults to 50 items, accepts 200 and cursors that are not (or no longer) an element", async () => {
    const key = await readKey();
    const all = await sqlIds("select id from tickets order by id");
    const page = expectOk(await api.get("/v1/tickets", key), TicketList);
    expect(ids(page.data)).toEqual(all.slice(0, 50));
    expect(page.has_more).toBe(true);
    const big = expectOk(await api.get("/v1/tickets?limit=200", key), TicketList);
    expect(ids(big.data)).toEqual(all.slice(0, 200));
    expect(big.has_more).toBe(all.length > 200);

    const zero = expectOk(
      await api.get("/v1/tickets?limit=3&starting_after=000000000000000000000000", key),
      TicketList,
    );
    expect(ids(zero.data)).toEqual(all.slice(0, 3));
    // A cursor between two ids: the items after it.
    const between = `${all[9].slice(0, 23)}${all[9][23] === "f" ? "f" : (Number.parseInt(all[9][23], 16) + 1).toString(16)}`;
    const expected = all.filter((id) => id > between).slice(0, 3);
    const mid = expectOk(await api.get(`/v1/tickets?limit=3&starting_after=${between}`, key), TicketList);
    expect(ids(mid.data)).toEqual(expected);
    // Hex is case-insensitive in a cursor.
    const upper = expectOk(
      await api.get(`/v1/tickets?limit=3&starting_after=${all[4].toUpperCase()}`, key),
      TicketList,
    );
    expect(ids(upper.data)).toEqual(all.slice(5, 8));
    const end = expectOk(
      await api.get("/v1/tickets?starting_after=ffffffffffffffffffffffff", key),
      TicketList,
    );
    expect(end).toEqual({ object: "list", data: [], has_more: false, next_cursor: null });
  });

  it.each(["active", "used", "inactive"])("filters by status=%s", async (status) => {
    const key = await readKey();
    const items = await api.walk<r.Ticket>(`/v1/tickets?status=${status}`, key, 40);
    const expected = await sqlIds("select id from tickets where status = $1 order by id", [status]);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(items)).toEqual(expected);
    for (const t of items) expect(t.status).toBe(status);
  });

  it("updated_since takes a date-time with offset or a date, inclusive, on updated_at", async () => {
    const key = await readKey();
    const rows = await q<{ id: string; updated_at: string }>(
      "select id, updated_at from tickets order by updated_at, id",
    );
    const pivot = rows[Math.floor(rows.length / 2)];
    const expected = await sqlIds("select id from tickets where updated_at >= $1 order by id", [
      pivot.updated_at,
    ]);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(rows.length);

    for (const since of [
      new Date(pivot.updated_at).toISOString(),
      withOffset(pivot.updated_at, "UTC+2"),
      withOffset(pivot.updated_at, "UTC-5"),
    ]) {
      const items = await api.walk<r.Ticket>(`/v1/tickets?updated_since=${enc(since)}`, key);
      expect(ids(items)).toEqual(expected);
      expect(ids(items)).toContain(pivot.id);
    }
    // One millisecond later, the pivot itself is out.
    const after = new Date(new Date(pivot.updated_at).getTime() + 1);
    const later = await api.walk<r.Ticket>(`/v1/tickets?updated_since=${enc(after.toISOString())}`, key);
    expect(ids(later)).toEqual(
      await sqlIds("select id from tickets where updated_at >= $1 order by id", [after]),
    );
    expect(ids(later)).not.toContain(pivot.id);

    // A date means 00:00 UTC of that date.
    const date = new Date(pivot.updated_at).toISOString().slice(0, 10);
    const byDate = await api.walk<r.Ticket>(`/v1/tickets?updated_since=${date}`, key);
    expect(ids(byDate)).toEqual(
      await sqlIds("select id from tickets where updated_at >= $1 order by id", [
        new Date(`${date}T00:00:00Z`),
      ]),
    );

    // Combined with status.
    const used = await api.walk<r.Ticket>(`/v1/tickets?status=used&updated_since=${date}`, key);
    expect(ids(used)).toEqual(
      await sqlIds("select id from tickets where status = 'used' and updated_at >= $1 order by id", [
        new Date(`${date}T00:00:00Z`),
      ]),
    );
  });
});

describe("GET /v1/tickets/{code}", () => {
  it("returns one ticket with the document masked to last4 and never the birth date", async () => {
    const key = await readKey();
    const [row] = await q<TicketSql>(
      `${TICKETS_SQL} where t.document_number is not null and t.birth_date is not null and t.wristband_id is not null
       order by t.id limit 1`,
    );
    expect(row).toBeDefined();
    const res = await api.get(`/v1/tickets/${enc(row.code)}`, key);
    expectOk(res, r.Ticket);
    expectTicket(res.body, row);
    expect(res.text).not.toContain(row.document_number!);
    expect(res.text).not.toContain(row.birth!);
  });

  it("returns document null for a ticket without one", async () => {
    const key = await readKey();
    const [row] = await q<TicketSql>(`${TICKETS_SQL} where t.document_number is null order by t.id limit 1`);
    const res = await api.get(`/v1/tickets/${enc(row.code)}`, key);
    expect(expectOk(res, r.Ticket).attendee.document).toBeNull();
    expectTicket(res.body, row);
  });

  it("is 404 ticket_not_found for an unknown code", async () => {
    const key = await readKey();
    expectError(await api.get("/v1/tickets/TK-NOPE0000", key), 404, "not_found_error", "ticket_not_found");
  });

  it("finds the ticket whatever the case of the code and with spaces around it, answering the code as issued", async () => {
    const key = await readKey();
    const [row] = await q<TicketSql>(`${TICKETS_SQL} order by t.id limit 1`);
    expect(row.code).toMatch(/[A-Z]/);
    for (const typed of [row.code.toLowerCase(), mixedCase(row.code), ` ${row.code.toLowerCase()}\t`]) {
      const res = await api.get(`/v1/tickets/${enc(typed)}`, key);
      expect(expectOk(res, r.Ticket).code).toBe(row.code);
      expectTicket(res.body, row);
    }
  });

  it("has the lower(…) indexes of migration 003 that serve lookups in any case; a ticket code's is unique", async () => {
    const rows = await q<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
       where schemaname = current_schema()
         and indexname in ('tickets_code_lower', 'wristbands_nfc_lower', 'wristbands_uhf_lower') order by indexname`,
    );
    expect(rows.map((r) => r.indexname)).toEqual([
      "tickets_code_lower",
      "wristbands_nfc_lower",
      "wristbands_uhf_lower",
    ]);
    expect(rows[0]!.indexdef).toMatch(/CREATE UNIQUE INDEX .* \(lower\(code\)\)/);
  });
});

describe("GET /v1/wristbands [ext]", () => {
  it("walks every wristband by ascending id, balances as stored", async () => {
    const key = await readKey();
    const items = await api.walk<r.Wristband>("/v1/wristbands", key, 37);
    const rows = await q<WristbandSql>(`${WRISTBANDS_SQL} order by w.id`);
    expect(ids(items)).toEqual(ids(rows));
    rows.forEach((row, i) => {
      expectWristband(items[i], row);
    });
    expect(rows.some((w) => w.balance < 0)).toBe(true);
    expect(rows.some((w) => w.ticket_id === null)).toBe(true);
  });

  it("pages with has_more and a null next_cursor at the end", async () => {
    const key = await readKey();
    const all = await sqlIds("select id from wristbands order by id");
    const page = expectOk(await api.get("/v1/wristbands?limit=5", key), WristbandList);
    expect(ids(page.data)).toEqual(all.slice(0, 5));
    expect(page.has_more).toBe(true);
    expect(page.next_cursor).toBe(all[4]);
    const last = expectOk(
      await api.get(`/v1/wristbands?limit=5&starting_after=${all[all.length - 5]}`, key),
      WristbandList,
    );
    expect(ids(last.data)).toEqual(all.slice(-4));
    expect(last.has_more).toBe(false);
    expect(last.next_cursor).toBeNull();
  });

  it.each(["active", "blocked", "lost", "released", "pending_review"])(
    "filters by status=%s",
    async (status) => {
      const key = await readKey();
      const items = await api.walk<r.Wristband>(`/v1/wristbands?status=${status}`, key);
      const expected = await sqlIds("select id from wristbands where status = $1 order by id", [status]);
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(items)).toEqual(expected);
    },
  );

  it("filters by updated_since (inclusive), alone and with status", async () => {
    const key = await readKey();
    const rows = await q<{ id: string; updated_at: string }>(
      "select id, updated_at from wristbands order by updated_at, id",
    );
    const pivot = rows[Math.floor(rows.length / 2)];
    const expected = await sqlIds("select id from wristbands where updated_at >= $1 order by id", [
      pivot.updated_at,
    ]);
    expect(expected.length).toBeLessThan(rows.length);
    const items = await api.walk<r.Wristband>(
      `/v1/wristbands?updated_since=${enc(withOffset(pivot.updated_at, "UTC+2"))}`,
      key,
    );
    expect(ids(items)).toEqual(expected);
    expect(ids(items)).toContain(pivot.id);
    const active = await api.walk<r.Wristband>(
      `/v1/wristbands?status=active&updated_since=${enc(new Date(pivot.updated_at).toISOString())}`,
      key,
    );
    expect(ids(active)).toEqual(
      await sqlIds("select id from wristbands where status = 'active' and updated_at >= $1 order by id", [
        pivot.updated_at,
      ]),
    );
  });
});

describe("GET /v1/wristbands/{code}", () => {
  it("finds a wristband by NFC and by UHF, with its balances", async () => {
    const key = await readKey();
    const [row] = await q<WristbandSql>(
      `${WRISTBANDS_SQL} where w.uhf is not null and w.balance <> 0 and w.promo_balance <> 0 order by w.id limit 1`,
    );
    expect(row).toBeDefined();
    for (const code of [row.nfc, row.uhf!]) {
      const res = await api.get(`/v1/wristbands/${enc(code)}`, key);
      expectOk(res, r.Wristband);
      expectWristband(res.body, row);
    }
  });

  it("shows a negative balance and an anonymous wristband as stored", async () => {
    const key = await readKey();
    const [negative] = await q<WristbandSql>(`${WRISTBANDS_SQL} where w.balance < 0 order by w.id limit 1`);
    const neg = expectOk(await api.get(`/v1/wristbands/${enc(negative.nfc)}`, key), r.Wristband);
    expect(neg.balance).toBe(negative.balance);
    expect(neg.balance).toBeLessThan(0);

    const [anonymous] = await q<WristbandSql>(
      `${WRISTBANDS_SQL} where w.ticket_id is null order by w.id limit 1`,
    );
    const res = await api.get(`/v1/wristbands/${enc(anonymous.nfc)}`, key);
    const anon = expectOk(res, r.Wristband);
    expectWristband(res.body, anonymous);
    expect(anon.attendee.anonymous).toBe(true);
    expect(anon.ticket).toBeNull();
  });

  it("finds a wristband by NFC and by UHF whatever their case, with spaces around them", async () => {
    const key = await readKey();
    const [row] = await q<WristbandSql>(`${WRISTBANDS_SQL} where w.uhf is not null order by w.id limit 1`);
    expect(`${row.nfc}${row.uhf}`).toMatch(/[A-F]/);
    for (const code of [row.nfc.toLowerCase(), ` ${mixedCase(row.uhf!)} `]) {
      const res = await api.get(`/v1/wristbands/${enc(code)}`, key);
      expect(expectOk(res, r.Wristband).nfc).toBe(row.nfc);
      expectWristband(res.body, row);
    }
    const sales = await api.get(`/v1/wristbands/${enc(row.nfc.toLowerCase())}/transactions?limit=1`, key);
    expectOk(sales, TransactionList);
  });

  it("is 404 wristband_not_found for an unknown code (a ticket code is not a wristband code)", async () => {
    const key = await readKey();
    expectError(
      await api.get("/v1/wristbands/04FFFFFFFFFFFF", key),
      404,
      "not_found_error",
      "wristband_not_found",
    );
    const [ticket] = await q<{ code: string }>("select code from tickets order by id limit 1");
    expectError(
      await api.get(`/v1/wristbands/${enc(ticket.code)}`, key),
      404,
      "not_found_error",
      "wristband_not_found",
    );
  });
});

describe("GET /v1/wristbands/{code}/transactions", () => {
  it("lists the sales paid against that wristband, by NFC or UHF, paginated", async () => {
    const key = await readKey();
    const [busy] = await q<{ wristband_id: string; nfc: string; uhf: string; n: number }>(
      `select s.wristband_id, w.nfc, w.uhf, count(*)::int as n from sales s join wristbands w on w.id = s.wristband_id
       group by 1, 2, 3 order by 4 desc, 1 limit 1`,
    );
    expect(busy.n).toBeGreaterThan(3);
    const rows = await q<SaleSql>("select * from sales where wristband_id = $1 order by id", [
      busy.wristband_id,
    ]);
    const byNfc = await api.walk<r.Transaction>(`/v1/wristbands/${enc(busy.nfc)}/transactions`, key, 2);
    expect(ids(byNfc)).toEqual(ids(rows));
    rows.forEach((row, i) => {
      expectTransaction(byNfc[i], row);
    });
    const byUhf = await api.walk<r.Transaction>(`/v1/wristbands/${enc(busy.uhf)}/transactions`, key);
    expect(ids(byUhf)).toEqual(ids(rows));

    const first = expectOk(
      await api.get(`/v1/wristbands/${enc(busy.nfc)}/transactions?limit=2`, key),
      TransactionList,
    );
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(rows[1].id);
  });

  it("filters by day_id and since", async () => {
    const key = await readKey();
    const [busy] = await q<{ wristband_id: string; nfc: string }>(
      `select s.wristband_id, w.nfc from sales s join wristbands w on w.id = s.wristband_id
       group by 1, 2 having count(distinct s.day_id) > 1 order by count(*) desc, 1 limit 1`,
    );
    const [day] = await q<{ day_id: string }>(
      "select day_id from sales where wristband_id = $1 group by 1 order by count(*) desc, 1 limit 1",
      [busy.wristband_id],
    );
    const byDay = await api.walk<r.Transaction>(
      `/v1/wristbands/${enc(busy.nfc)}/transactions?day_id=${day.day_id}`,
      key,
    );
    const expectedDay = await sqlIds(
      "select id from sales where wristband_id = $1 and day_id = $2 order by id",
      [busy.wristband_id, day.day_id],
    );
    expect(expectedDay.length).toBeGreaterThan(0);
    expect(ids(byDay)).toEqual(expectedDay);

    const times = await q<{ occurred_at: string }>(
      "select occurred_at from sales where wristband_id = $1 order by occurred_at",
      [busy.wristband_id],
    );
    const since = times[Math.floor(times.length / 2)].occurred_at;
    const bySince = await api.walk<r.Transaction>(
      `/v1/wristbands/${enc(busy.nfc)}/transactions?since=${enc(withOffset(since, "UTC+2"))}`,
      key,
    );
    expect(ids(bySince)).toEqual(
      await sqlIds("select id from sales where wristband_id = $1 and occurred_at >= $2 order by id", [
        busy.wristband_id,
        since,
      ]),
    );
  });

  it("is 404 wristband_not_found for an unknown wristband", async () => {
    const key = await readKey();
    expectError(
      await api.get("/v1/wristbands/04FFFFFFFFFFFF/transactions", key),
      404,
      "not_found_error",
      "wristband_not_found",
    );
  });
});

describe("GET /v1/transactions", () => {
  it("walks every sale by ascending id, each one matching the store", async () => {
    const key = await readKey();
    const items = await api.walk<r.Transaction>("/v1/transactions", key);
    const rows = await q<SaleSql>("select * from sales order by id");
    expect(rows.length).toBeGreaterThan(500);
    expect(ids(items)).toEqual(ids(rows));
    rows.forEach((row, i) => {
      expectTransaction(items[i], row);
    });
    const first = expectOk(await api.get("/v1/transactions?limit=3", key), TransactionList);
    expect(first).toMatchObject({ has_more: true, next_cursor: rows[2].id });
  });

  it("filters by day_id", async () => {
    const key = await readKey();
    let seen = 0;
    for (const dayId of dayIds) {
      const items = await api.walk<r.Transaction>(`/v1/transactions?day_id=${dayId}`, key);
      const expected = await sqlIds("select id from sales where day_id = $1 order by id", [dayId]);
      expect(ids(items)).toEqual(expected);
      for (const t of items) expect(t.day_id).toBe(dayId);
      seen += expected.length;
    }
    const [{ count }] = await q<{ count: number }>("select count(*)::int as count from sales");
    expect(seen).toBe(count);
  });

  it("since filters by occurred_at (not created_at), inclusive, as a date-time with offset or a date", async () => {
    const key = await readKey();
    await expectSinceSemantics("/v1/transactions", "sales", key);
  });

  it("combines day_id and since", async () => {
    const key = await readKey();
    const since = new Date(`${await dayDate(2)}T18:00:00Z`);
    const items = await api.walk<r.Transaction>(
      `/v1/transactions?day_id=${dayIds[2]}&since=${enc(withOffset(since, "UTC+2"))}`,
      key,
    );
    const expected = await sqlIds(
      "select id from sales where day_id = $1 and occurred_at >= $2 order by id",
      [dayIds[2], since],
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(items)).toEqual(expected);
  });
});

async function dayDate(index: number): Promise<string> {
  const [row] = await q<{ date: string }>(
    "select to_char(date, 'YYYY-MM-DD') as date from days where id = $1",
    [dayIds[index]],
  );
  return row.date;
}

/**
 * `since` on sales and top-ups: by occurred_at. A record synchronised late (occurred before the
 * bound, arrived after it) must be left out; the bound is inclusive; a date means 00:00 UTC.
 */
async function expectSinceSemantics(path: string, table: "sales" | "topups", key: string) {
  const [late] = await q<{ id: string; occurred_at: string; created_at: string }>(
    `select id, occurred_at, created_at from ${table} where created_at - occurred_at > interval '1 minute'
     order by created_at - occurred_at desc, id limit 1`,
  );
  expect(late, `no late-synchronised ${table} in the seed`).toBeDefined();
  const bound = new Date(new Date(late.occurred_at).getTime() + 1000);
  expect(new Date(late.created_at).getTime()).toBeGreaterThan(bound.getTime());

  const expectedFor = (since: Date | string) =>
    sqlIds(`select id from ${table} where occurred_at >= $1 order by id`, [since]);

  const items = await api.walk<{ id: string; occurred_at: string }>(
    `${path}?since=${enc(withOffset(bound, "UTC+2"))}`,
    key,
  );
  const expected = await expectedFor(bound);
  expect(ids(items)).toEqual(expected);
  expect(ids(items)).not.toContain(late.id);
  for (const i of items) expect(new Date(i.occurred_at).getTime()).toBeGreaterThanOrEqual(bound.getTime());
  // Filtering by created_at would have given another set.
  const byCreated = await sqlIds(`select id from ${table} where created_at >= $1 order by id`, [bound]);
  expect(byCreated).toContain(late.id);

  // Inclusive: exactly its occurred_at keeps it.
  const inclusive = await api.walk<{ id: string }>(
    `${path}?since=${enc(new Date(late.occurred_at).toISOString())}`,
    key,
  );
  expect(ids(inclusive)).toEqual(await expectedFor(late.occurred_at));
  expect(ids(inclusive)).toContain(late.id);

  // A negative offset is the same instant.
  const west = await api.walk<{ id: string }>(
    `${path}?since=${enc(withOffset(late.occurred_at, "UTC-7"))}`,
    key,
  );
  expect(ids(west)).toEqual(ids(inclusive));

  // A date: 00:00 UTC of that date.
  const date = new Date(late.occurred_at).toISOString().slice(0, 10);
  const byDate = await api.walk<{ id: string }>(`${path}?since=${date}`, key);
  expect(ids(byDate)).toEqual(await expectedFor(new Date(`${date}T00:00:00Z`)));
}

describe("GET /v1/topups", () => {
  it("walks every balance movement by ascending id, each one matching the store", async () => {
    const key = await readKey();
    const items = await api.walk<r.Topup>("/v1/topups", key);
    const rows = await q<TopupSql>("select * from topups order by id");
    expect(ids(items)).toEqual(ids(rows));
    rows.forEach((row, i) => {
      expectTopup(items[i], row);
    });
    const page = expectOk(await api.get("/v1/topups?limit=6", key), TopupList);
    expect(page).toMatchObject({ has_more: true, next_cursor: rows[5].id });
    expect(ids(page.data)).toEqual(ids(rows.slice(0, 6)));
  });

  it.each(["topup", "withdraw"])("filters by direction=%s", async (direction) => {
    const key = await readKey();
    const items = await api.walk<r.Topup>(`/v1/topups?direction=${direction}`, key);
    const expected = await sqlIds("select id from topups where direction = $1 order by id", [direction]);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(items)).toEqual(expected);
    for (const t of items) expect(t.direction).toBe(direction);
  });

  it("filters by day_id, alone and with direction", async () => {
    const key = await readKey();
    for (const dayId of dayIds.slice(0, 3)) {
      const items = await api.walk<r.Topup>(`/v1/topups?day_id=${dayId}`, key);
      const expected = await sqlIds("select id from topups where day_id = $1 order by id", [dayId]);
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(items)).toEqual(expected);
    }
    const withdrawals = await api.walk<r.Topup>(`/v1/topups?day_id=${dayIds[1]}&direction=withdraw`, key);
    expect(ids(withdrawals)).toEqual(
      await sqlIds("select id from topups where day_id = $1 and direction = 'withdraw' order by id", [
        dayIds[1],
      ]),
    );
  });

  it("since filters by occurred_at (not created_at), inclusive", async () => {
    const key = await readKey();
    await expectSinceSemantics("/v1/topups", "topups", key);
  });
});

describe("GET /v1/topup-bonuses/quote", () => {
  interface RuleSql {
    id: string;
    name: string;
    valid_from: Date;
    valid_until: Date;
    tiers: { min_amount: number; bonus_amount: number }[];
  }
  let rules: RuleSql[];
  let cap: number;
  const rule = (name: string) => {
    const found = rules.find((x) => x.name === name);
    if (!found) throw new Error(`no rule ${name}`);
    return { id: found.id, name: found.name };
  };

  beforeAll(async () => {
    rules = (await q<RuleSql>("select * from bonus_rules order by id")).map((x) => ({
      ...x,
      valid_from: new Date(x.valid_from),
      valid_until: new Date(x.valid_until),
    }));
    [{ cap }] = await q<{ cap: number }>("select bonus_cap_per_person as cap from event");
  });

  /** The decided quote rules, computed from the stored rules (an independent oracle). */
  function oracle(amount: number, remaining: number | null, at: Date) {
    const valid = rules.filter((x) => x.valid_from <= at && at < x.valid_until);
    const gift = (a: number) => {
      let best: { bonus: number; rule: RuleSql | null } = { bonus: 0, rule: null };
      for (const x of valid)
        for (const t of x.tiers)
          if (t.min_amount <= a && t.bonus_amount > best.bonus) best = { bonus: t.bonus_amount, rule: x };
      const bonus = remaining === null ? best.bonus : Math.min(best.bonus, remaining);
      return bonus > 0 ? { bonus, rule: best.rule } : { bonus: 0, rule: null };
    };
    const current = gift(amount);
    const thresholds = [...new Set(valid.flatMap((x) => x.tiers.map((t) => t.min_amount)))]
      .filter((m) => m > amount)
      .sort((a, b) => a - b);
    const nextAt = thresholds.find((m) => gift(m).bonus > current.bonus);
    return {
      amount,
      bonus_amount: current.bonus,
      rule: current.rule ? { id: current.rule.id, name: current.rule.name } : null,
      next: nextAt === undefined ? null : { amount: nextAt, bonus_amount: gift(nextAt).bonus },
    };
  }

  const atSeedTime = () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(TEST_NOW);
  };

  it("without code: the best valid tier per amount, in the requested order, with next", async () => {
    atSeedTime();
    const key = await readKey();
    const res = await api.get("/v1/topup-bonuses/quote?amounts=500,2000,10000,5000,2000,0", key);
    const quote = expectOk(res, r.TopupBonusQuote);
    const happy = rule("Happy hour");
    // At the seed's "now" the festival rule and the happy hour are valid; the happy hour gives more.
    expect(quote).toEqual({
      object: "topup_bonus_quote",
      data: [
        { amount: 500, bonus_amount: 0, rule: null, next: { amount: 2000, bonus_amount: 300 } },
        { amount: 2000, bonus_amount: 300, rule: happy, next: { amount: 5000, bonus_amount: 800 } },
        { amount: 10000, bonus_amount: 1800, rule: happy, next: null },
        { amount: 5000, bonus_amount: 800, rule: happy, next: { amount: 10000, bonus_amount: 1800 } },
        { amount: 2000, bonus_amount: 300, rule: happy, next: { amount: 5000, bonus_amount: 800 } },
        { amount: 0, bonus_amount: 0, rule: null, next: { amount: 2000, bonus_amount: 300 } },
      ],
    });
    for (const line of quote.data) expect(line).toEqual(oracle(line.amount, null, TEST_NOW));
  });

  it("follows the rules valid at the time of the request", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // Before the happy hour, the festival rule alone.
    vi.setSystemTime(new Date(TEST_NOW.getTime() - 3 * 3600_000));
    const key = await readKey();
    const quote = expectOk(
      await api.get("/v1/topup-bonuses/quote?amounts=2000,5000,10000", key),
      r.TopupBonusQuote,
    );
    const festival = rule("Festival top-up bonus");
    expect(quote.data).toEqual([
      { amount: 2000, bonus_amount: 100, rule: festival, next: { amount: 5000, bonus_amount: 400 } },
      { amount: 5000, bonus_amount: 400, rule: festival, next: { amount: 10000, bonus_amount: 1000 } },
      { amount: 10000, bonus_amount: 1000, rule: festival, next: null },
    ]);
  });

  it("keeps 20 amounts in the requested order", async () => {
    atSeedTime();
    const key = await readKey();
    const amounts = Array.from({ length: 20 }, (_, i) => ((i * 7919) % 12) * 1000);
    const quote = expectOk(
      await api.get(`/v1/topup-bonuses/quote?amounts=${amounts.join(",")}`, key),
      r.TopupBonusQuote,
    );
    expect(quote.data.map((l) => l.amount)).toEqual(amounts);
    for (const line of quote.data) expect(line).toEqual(oracle(line.amount, null, TEST_NOW));
  });

  it("with code: deducts the person's granted bonuses and the pending rules from the cap", async () => {
    atSeedTime();
    const key = await readKey();
    // A ticket whose person has received no bonus yet: the whole cap is left.
    const [fresh] = await q<{ code: string }>(
      `select t.code from tickets t where not exists (
         select 1 from topups tp join wristbands w on w.id = tp.wristband_id
         where w.ticket_id = t.id and tp.nature = 'bonus') order by t.id limit 1`,
    );
    const full = expectOk(
      await api.get(`/v1/topup-bonuses/quote?amounts=10000&code=${enc(fresh.code)}`, key),
      r.TopupBonusQuote,
    );
    expect(full.data).toEqual([oracle(10000, cap, TEST_NOW)]);
    expect(full.data[0].bonus_amount).toBe(1800);

    // One pending happy-hour bonus (1800) leaves 700 of the 2500 cap; `next` counts the cap too.
    const happy = rule("Happy hour");
    const pending = expectOk(
      await api.get(
        `/v1/topup-bonuses/quote?amounts=2000,5000,10000&code=${enc(fresh.code)}&pending_rules=${happy.id}`,
        key,
      ),
      r.TopupBonusQuote,
    );
    expect(cap).toBe(2500);
    expect(pending.data).toEqual([
      { amount: 2000, bonus_amount: 300, rule: happy, next: { amount: 5000, bonus_amount: 700 } },
      { amount: 5000, bonus_amount: 700, rule: happy, next: null },
      { amount: 10000, bonus_amount: 700, rule: happy, next: null },
    ]);
    // Ids are case-insensitive; two pending happy hours exhaust the cap.
    const exhausted = expectOk(
      await api.get(
        `/v1/topup-bonuses/quote?amounts=2000,10000&code=${enc(fresh.code)}&pending_rules=${happy.id.toUpperCase()},${happy.id}`,
        key,
      ),
      r.TopupBonusQuote,
    );
    expect(exhausted.data).toEqual([
      { amount: 2000, bonus_amount: 0, rule: null, next: null },
      { amount: 10000, bonus_amount: 0, rule: null, next: null },
    ]);
    // Without code the cap (and so pending_rules) does not apply.
    const uncapped = expectOk(
      await api.get(`/v1/topup-bonuses/quote?amounts=10000&pending_rules=${happy.id},${happy.id}`, key),
      r.TopupBonusQuote,
    );
    expect(uncapped.data[0].bonus_amount).toBe(1800);
  });

  it("with code: a person who already received bonuses, by ticket code or by wristband code", async () => {
    atSeedTime();
    const key = await readKey();
    const [person] = await q<{ code: string; nfc: string; granted: number }>(
      `select t.code, min(w.nfc) as nfc, sum(tp.amount)::int as granted
       from tickets t join wristbands w on w.ticket_id = t.id join topups tp on tp.wristband_id = w.id
       where tp.nature = 'bonus' and tp.direction = 'topup' and tp.status = 'completed'
       group by t.id, t.code having sum(tp.amount) < $1 order by sum(tp.amount) desc, t.id limit 1`,
      [cap],
    );
    expect(person.granted).toBeGreaterThan(0);
    const remaining = cap - person.granted;
    const amounts = "2000,5000,10000";
    const expected = amounts.split(",").map((a) => oracle(Number(a), remaining, TEST_NOW));
    const byTicket = expectOk(
      await api.get(`/v1/topup-bonuses/quote?amounts=${amounts}&code=${enc(person.code)}`, key),
      r.TopupBonusQuote,
    );
    expect(byTicket.data).toEqual(expected);
    const byWristband = expectOk(
      await api.get(`/v1/topup-bonuses/quote?amounts=${amounts}&code=${enc(person.nfc)}`, key),
      r.TopupBonusQuote,
    );
    expect(byWristband.data).toEqual(expected);
    // The cap made a difference for this person.
    expect(expected).not.toEqual(amounts.split(",").map((a) => oracle(Number(a), null, TEST_NOW)));
  });

  it("is 400 for an unknown code or an unknown pending rule", async () => {
    const key = await readKey();
    expectError(
      await api.get("/v1/topup-bonuses/quote?amounts=2000&code=NO-SUCH-CODE", key),
      400,
      "invalid_request_error",
      "invalid_parameter",
      "code",
    );
    expectError(
      await api.get("/v1/topup-bonuses/quote?amounts=2000&pending_rules=0123456789abcdef01234567", key),
      400,
      "invalid_request_error",
      "invalid_parameter",
      "pending_rules",
    );
  });

  it.each([
    "abc",
    "",
    "1234567",
    "100,,200",
    "100,",
    "-5",
    "1.5",
    "100 200",
    Array.from({ length: 21 }, () => "100").join(","),
  ])("amounts=%j is 400 invalid_parameter", async (amounts) => {
    const key = await readKey();
    expectError(
      await api.get(`/v1/topup-bonuses/quote?amounts=${enc(amounts)}`, key),
      400,
      "invalid_request_error",
      "invalid_parameter",
      "amounts",
    );
  });

  it.each([
    "abc",
    "0123456789abcdef0123456",
    "0123456789abcdef01234567,",
    Array.from({ length: 51 }, () => "0123456789abcdef01234567").join(","),
  ])("pending_rules=%j is 400 invalid_parameter", async (pending) => {
    const key = await readKey();
    expectError(
      await api.get(`/v1/topup-bonuses/quote?amounts=100&pending_rules=${enc(pending)}`, key),
      400,
      "invalid_request_error",
      "invalid_parameter",
      "pending_rules",
    );
  });

  it("is 400 parameter_missing without amounts", async () => {
    const key = await readKey();
    expectError(
      await api.get("/v1/topup-bonuses/quote", key),
      400,
      "invalid_request_error",
      "parameter_missing",
      "amounts",
    );
    expectError(
      await api.get("/v1/topup-bonuses/quote?code=TK-X", key),
      400,
      "invalid_request_error",
      "parameter_missing",
      "amounts",
    );
  });
});

describe("GET /v1/checkins", () => {
  it("walks every scan by ascending id, each one matching the store", async () => {
    const key = await readKey();
    const items = await api.walk<r.Checkin>("/v1/checkins", key);
    const rows = await q<ScanSql>("select * from scans order by id");
    expect(rows.length).toBeGreaterThan(50);
    expect(ids(items)).toEqual(ids(rows));
    rows.forEach((row, i) => {
      expectCheckin(items[i], row);
    });
    const page = expectOk(await api.get("/v1/checkins?limit=4", key), CheckinList);
    expect(page).toMatchObject({ has_more: true, next_cursor: rows[3].id });
  });

  it("filters by day_id, zone_id and since, alone and together", async () => {
    const key = await readKey();
    const [busy] = await q<{ day_id: string; zone_id: string }>(
      "select day_id, zone_id from scans where zone_id is not null group by 1, 2 order by count(*) desc, 1, 2 limit 1",
    );
    const byDay = await api.walk<r.Checkin>(`/v1/checkins?day_id=${busy.day_id}`, key);
    expect(ids(byDay)).toEqual(
      await sqlIds("select id from scans where day_id = $1 order by id", [busy.day_id]),
    );
    const byZone = await api.walk<r.Checkin>(`/v1/checkins?zone_id=${busy.zone_id}`, key);
    const zoneExpected = await sqlIds("select id from scans where zone_id = $1 order by id", [busy.zone_id]);
    expect(zoneExpected.length).toBeGreaterThan(0);
    expect(ids(byZone)).toEqual(zoneExpected);
    for (const s of byZone) expect(s.zone?.id).toBe(busy.zone_id);

    const times = await q<{ occurred_at: string }>("select occurred_at from scans order by occurred_at");
    const since = times[Math.floor(times.length / 2)].occurred_at;
    const bySince = await api.walk<r.Checkin>(`/v1/checkins?since=${enc(withOffset(since, "UTC+2"))}`, key);
    const sinceExpected = await sqlIds("select id from scans where occurred_at >= $1 order by id", [since]);
    expect(sinceExpected.length).toBeLessThan(times.length);
    expect(ids(bySince)).toEqual(sinceExpected);

    const all = await api.walk<r.Checkin>(
      `/v1/checkins?day_id=${busy.day_id}&zone_id=${busy.zone_id}&since=${enc(new Date(since).toISOString())}`,
      key,
    );
    expect(ids(all)).toEqual(
      await sqlIds(
        "select id from scans where day_id = $1 and zone_id = $2 and occurred_at >= $3 order by id",
        [busy.day_id, busy.zone_id, since],
      ),
    );
  });

  it("is 400 invalid_parameter for an unknown or malformed zone_id", async () => {
    const key = await readKey();
    for (const zone of ["0123456789abcdef01234567", "vip"]) {
      expectError(
        await api.get(`/v1/checkins?zone_id=${zone}`, key),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "zone_id",
      );
    }
  });
});

describe("GET /v1/reports/sales-summary", () => {
  /** What a client gets by summing the paginated lists: the summary must equal it. */
  function summarise(sales: r.Transaction[], topups: r.Topup[]) {
    const done = sales.filter((s) => s.status === "completed");
    const group = <T, K extends string>(
      items: T[],
      key: (i: T) => K,
      fold: (acc: Record<string, number>, i: T) => void,
    ) => {
      const out = new Map<K, Record<string, number>>();
      for (const i of items) {
        const k = key(i);
        const acc = out.get(k) ?? {};
        fold(acc, i);
        out.set(k, acc);
      }
      return out;
    };
    const add = (acc: Record<string, number>, field: string, v: number) => {
      acc[field] = (acc[field] ?? 0) + v;
    };
    const byMethod = group(
      done,
      (s) => s.payment_method,
      (acc, s) => {
        add(acc, "count", 1);
        add(acc, "total", s.total);
      },
    );
    const byTax = group(
      done.flatMap((s) => s.tax_breakdown),
      (t) => `${t.tax_type}|${t.rate}`,
      (acc, t) => {
        add(acc, "base", t.base);
        add(acc, "amount", t.amount);
      },
    );
    const byProduct = group(
      done.flatMap((s) => s.items),
      (i) => i.product_id,
      (acc, i) => {
        add(acc, "quantity", i.quantity);
        add(acc, "total", i.charged_amount);
      },
    );
    const flow = (direction: "topup" | "withdraw") => {
      const lines = topups.filter((t) => t.status === "completed" && t.direction === direction);
      const methods = group(
        lines,
        (t) => t.payment_method,
        (acc, t) => {
          add(acc, "count", 1);
          add(acc, "amount", t.amount);
        },
      );
      return {
        count: lines.length,
        amount: lines.reduce((s, t) => s + t.amount, 0),
        by_payment_method: [...methods].map(([payment_method, v]) => ({
          payment_method,
          count: v.count,
          amount: v.amount,
        })),
      };
    };
    const bonuses = topups.filter(
      (t) => t.status === "completed" && t.direction === "topup" && t.nature === "bonus",
    );
    return {
      sales: {
        count: done.length,
        total: done.reduce((s, x) => s + x.total, 0),
        total_base: done.reduce((s, x) => s + x.total_base, 0),
        total_tax: done.reduce((s, x) => s + x.total_tax, 0),
      },
      by_payment_method: [...byMethod].map(([payment_method, v]) => ({
        payment_method,
        count: v.count,
        total: v.total,
      })),
      by_tax: [...byTax].map(([k, v]) => ({
        tax_type: k.split("|")[0],
        rate: Number(k.split("|")[1]),
        base: v.base,
        amount: v.amount,
      })),
      by_product: [...byProduct].map(([product_id, v]) => ({
        product_id,
        quantity: v.quantity,
        total: v.total,
      })),
      topups: flow("topup"),
      withdrawals: flow("withdraw"),
      bonuses: { count: bonuses.length, amount: bonuses.reduce((s, t) => s + t.amount, 0) },
    };
  }

  const byKey = <T>(items: T[], key: (i: T) => string) =>
    [...items].sort((a, b) => (key(a) < key(b) ? -1 : 1));

  function expectSummaryEquals(summary: r.SalesSummary, expected: ReturnType<typeof summarise>) {
    expect(summary.sales).toEqual(expected.sales);
    expect(byKey(summary.by_payment_method, (m) => m.payment_method)).toEqual(
      byKey(expected.by_payment_method, (m) => m.payment_method),
    );
    expect(byKey(summary.by_tax, (t) => `${t.tax_type}|${t.rate}`)).toEqual(
      byKey(expected.by_tax, (t) => `${t.tax_type}|${t.rate}`),
    );
    expect(
      byKey(
        summary.by_product.map(({ product_id, quantity, total }) => ({ product_id, quantity, total })),
        (p) => p.product_id,
      ),
    ).toEqual(byKey(expected.by_product, (p) => p.product_id));
    for (const flow of ["topups", "withdrawals"] as const) {
      expect(summary[flow].count).toBe(expected[flow].count);
      expect(summary[flow].amount).toBe(expected[flow].amount);
      expect(byKey(summary[flow].by_payment_method, (m) => m.payment_method)).toEqual(
        byKey(expected[flow].by_payment_method, (m) => m.payment_method),
      );
    }
    expect(summary.bonuses).toEqual(expected.bonuses);
  }

  it("without day_id: the whole event, equal to the sums of the lists and to SQL", async () => {
    const key = await readKey();
    const summary = expectOk(await api.get("/v1/reports/sales-summary", key), r.SalesSummary);
    expect(summary.object).toBe("sales_summary");
    expect(summary.day_id).toBeNull();
    expect(summary.currency).toBe("EUR");
    expect(Number.isNaN(Date.parse(summary.generated_at))).toBe(false);

    const sales = await api.walk<r.Transaction>("/v1/transactions", key);
    const topups = await api.walk<r.Topup>("/v1/topups", key);
    expectSummaryEquals(summary, summarise(sales, topups));

    const [sql] = await q<{ count: number; total: number }>(
      "select count(*)::int as count, sum(total)::int as total from sales where status = 'completed'",
    );
    expect(summary.sales).toMatchObject(sql);
    expect(summary.sales.count).toBeLessThan(sales.length); // pending and cancelled sales exist and are left out
    const names = new Map(sales.flatMap((s) => s.items).map((i) => [i.product_id, i.name]));
    for (const p of summary.by_product) expect(p.name).toBe(names.get(p.product_id));
  });

  it("with day_id: that day only, equal to the sums of that day's lists", async () => {
    const key = await readKey();
    for (const dayId of dayIds.slice(0, 3)) {
      const summary = expectOk(
        await api.get(`/v1/reports/sales-summary?day_id=${dayId}`, key),
        r.SalesSummary,
      );
      expect(summary.day_id).toBe(dayId);
      const sales = await api.walk<r.Transaction>(`/v1/transactions?day_id=${dayId}`, key);
      const topups = await api.walk<r.Topup>(`/v1/topups?day_id=${dayId}`, key);
      expectSummaryEquals(summary, summarise(sales, topups));
      const [sql] = await q<{ count: number }>(
        "select count(*)::int as count from sales where status = 'completed' and day_id = $1",
        [dayId],
      );
      expect(summary.sales.count).toBe(sql.count);
      expect(sql.count).toBeGreaterThan(0);
    }
  });
});

describe("keys restricted to days or ticket types", () => {
  it("a day-restricted key sees only that day: days, sales, tickets, and other days are invalid filters", async () => {
    const day = dayIds[1];
    const key = await readKey({ restrictions: { day_ids: [day] } });
    const days = expectOk(await api.get("/v1/days", key), r.PlainList(r.Day));
    expect(ids(days.data)).toEqual([day]);
    const sales = await api.walk<r.Transaction>("/v1/transactions", key);
    expect(ids(sales)).toEqual(await sqlIds("select id from sales where day_id = $1 order by id", [day]));
    const tickets = await api.walk<r.Ticket>("/v1/tickets", key);
    expect(ids(tickets)).toEqual(
      await sqlIds("select id from tickets where $1 = any(valid_day_ids) order by id", [day]),
    );
    for (const t of tickets) expect(ids(t.valid_days)).toEqual([day]);
    const [outside] = await q<{ code: string }>(
      "select code from tickets where not ($1 = any(valid_day_ids)) order by id limit 1",
      [day],
    );
    expectError(
      await api.get(`/v1/tickets/${enc(outside.code)}`, key),
      404,
      "not_found_error",
      "ticket_not_found",
    );
    for (const path of ["/v1/transactions", "/v1/topups", "/v1/checkins", "/v1/reports/sales-summary"]) {
      expectError(
        await api.get(`${path}?day_id=${dayIds[2]}`, key),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "day_id",
      );
    }
    const summary = expectOk(await api.get("/v1/reports/sales-summary", key), r.SalesSummary);
    const [sql] = await q<{ count: number }>(
      "select count(*)::int as count from sales where status = 'completed' and day_id = $1",
      [day],
    );
    expect(summary.sales.count).toBe(sql.count);
  });

  it("a type-restricted key sees only tickets of that type and their wristbands", async () => {
    const [type] = await q<{ id: string }>(
      "select ticket_type_id as id from tickets group by 1 order by count(*) desc, 1 limit 1",
    );
    const key = await readKey({ restrictions: { ticket_type_ids: [type.id] } });
    const types = expectOk(await api.get("/v1/ticket-types", key), r.PlainList(r.TicketType));
    expect(ids(types.data)).toEqual([type.id]);
    const tickets = await api.walk<r.Ticket>("/v1/tickets", key);
    expect(ids(tickets)).toEqual(
      await sqlIds("select id from tickets where ticket_type_id = $1 order by id", [type.id]),
    );
    const wristbands = await api.walk<r.Wristband>("/v1/wristbands", key);
    expect(ids(wristbands)).toEqual(
      await sqlIds(
        "select w.id from wristbands w join tickets t on t.id = w.ticket_id where t.ticket_type_id = $1 order by w.id",
        [type.id],
      ),
    );
  });
});

// --------------------------------------------------------------------------------------------
// Errors of the read side.

const LIST_PATHS = ["/v1/tickets", "/v1/wristbands", "/v1/transactions", "/v1/topups", "/v1/checkins"];

describe("read errors", () => {
  it.each(["0", "201", "abc", "1.5", "-1", "", "1e2", "5000"])(
    "limit=%j is 400 invalid_parameter",
    async (limit) => {
      const key = await readKey();
      const [w] = await q<{ nfc: string }>("select nfc from wristbands order by id limit 1");
      for (const path of [...LIST_PATHS, `/v1/wristbands/${w.nfc}/transactions`]) {
        expectError(
          await api.get(`${path}?limit=${enc(limit)}`, key),
          400,
          "invalid_request_error",
          "invalid_parameter",
          "limit",
        );
      }
    },
  );

  it("accepts the limits 1 and 200", async () => {
    const key = await readKey();
    expect(expectOk(await api.get("/v1/tickets?limit=1", key), TicketList).data).toHaveLength(1);
    expect(expectOk(await api.get("/v1/transactions?limit=200", key), TransactionList).data).toHaveLength(
      200,
    );
  });

  it.each(["abc", "0123456789abcdef0123456", "0123456789abcdef012345678", "0123456789abcdef0123456g"])(
    "starting_after=%j is 400 invalid_parameter",
    async (cursor) => {
      const key = await readKey();
      for (const path of LIST_PATHS) {
        expectError(
          await api.get(`${path}?starting_after=${cursor}`, key),
          400,
          "invalid_request_error",
          "invalid_parameter",
          "starting_after",
        );
      }
    },
  );

  it("an unknown or malformed day_id is 400 invalid_parameter on every day filter", async () => {
    const key = await readKey();
    const [w] = await q<{ nfc: string }>("select nfc from wristbands order by id limit 1");
    const paths = [
      "/v1/transactions",
      "/v1/topups",
      "/v1/checkins",
      "/v1/reports/sales-summary",
      `/v1/wristbands/${w.nfc}/transactions`,
    ];
    for (const path of paths) {
      for (const day of ["0123456789abcdef01234567", "today", dayIds[0].slice(1)]) {
        expectError(
          await api.get(`${path}?day_id=${day}`, key),
          400,
          "invalid_request_error",
          "invalid_parameter",
          "day_id",
        );
      }
    }
  });

  it.each([
    "yesterday",
    "2026-07-10T10:00:00",
    "2026-13-01",
    "2026-02-30",
    "10/07/2026",
    "2026-07-10T25:00:00Z",
    "1720569600",
  ])("since=%j is 400 invalid_parameter (and updated_since too)", async (since) => {
    const key = await readKey();
    for (const path of ["/v1/transactions", "/v1/topups", "/v1/checkins"]) {
      expectError(
        await api.get(`${path}?since=${enc(since)}`, key),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "since",
      );
    }
    for (const path of ["/v1/tickets", "/v1/wristbands"]) {
      expectError(
        await api.get(`${path}?updated_since=${enc(since)}`, key),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "updated_since",
      );
    }
  });

  it("a status or direction outside the enum is 400 invalid_parameter", async () => {
    const key = await readKey();
    const cases: [string, string][] = [
      ["/v1/tickets?status=pending_review", "status"],
      ["/v1/tickets?status=ACTIVE", "status"],
      ["/v1/tickets?status=", "status"],
      ["/v1/wristbands?status=used", "status"],
      ["/v1/topups?direction=refund", "direction"],
    ];
    for (const [path, param] of cases) {
      expectError(await api.get(path, key), 400, "invalid_request_error", "invalid_parameter", param);
    }
  });

  it("a query parameter the endpoint does not know is 400 unknown_parameter naming it", async () => {
    const key = await readKey();
    const [t] = await q<{ code: string }>("select code from tickets order by id limit 1");
    const cases: [string, string][] = [
      ["/v1/ping?verbose=1", "verbose"],
      ["/v1/event?expand=days", "expand"],
      ["/v1/days?limit=1", "limit"],
      ["/v1/zones?x=1", "x"],
      ["/v1/ticket-types?status=active", "status"],
      ["/v1/tickets?foo=bar", "foo"],
      ["/v1/tickets?day_id=0123456789abcdef01234567", "day_id"],
      [`/v1/tickets/${enc(t.code)}?expand=wristband`, "expand"],
      ["/v1/wristbands?direction=topup", "direction"],
      ["/v1/transactions?direction=topup", "direction"],
      ["/v1/transactions?updated_since=2026-07-10", "updated_since"],
      ["/v1/topups?status=completed", "status"],
      ["/v1/topup-bonuses/quote?amounts=100&direction=topup", "direction"],
      ["/v1/checkins?status=allowed", "status"],
      ["/v1/reports/sales-summary?since=2026-07-10", "since"],
      ["/v1/tickets?Limit=5", "Limit"],
    ];
    for (const [path, param] of cases) {
      expectError(await api.get(path, key), 400, "invalid_request_error", "unknown_parameter", param);
    }
  });

  it("unknown routes are 404 route_not_found, with or without a key, inside and outside /v1", async () => {
    const key = await readKey();
    for (const path of ["/v1/nope", "/v1/tickets/TK-1/nope", "/v2/tickets", "/nope", "/v1", "/admin/nope"]) {
      expectError(await api.get(path, key), 404, "not_found_error", "route_not_found");
      expectError(await api.request(path), 404, "not_found_error", "route_not_found");
    }
  });

  // The router does not serve a trailing slash, so it must not be reported as a method problem.
  it("a trailing slash is never 405 for the method the route allows", async () => {
    const key = await readKey();
    for (const path of ["/v1/tickets/", "/v1/ping/"]) {
      const res = await api.get(path, key);
      expect(res.status, res.text).not.toBe(405);
    }
  });

  it("a path that only resembles a route (regex characters) is 404, not 405", async () => {
    const key = await readKey();
    for (const path of ["/v1/openapi_json", "/v1/openapiXjson"]) {
      expectError(await api.get(path, key), 404, "not_found_error", "route_not_found");
    }
  });

  it("a known path with another method is 405 method_not_allowed with Allow", async () => {
    const key = await readKey();
    const cases: [string, string][] = [
      ["DELETE", "/v1/tickets"],
      ["PUT", "/v1/tickets/TK-1"],
      ["PATCH", "/v1/event"],
      ["DELETE", "/v1/topup-bonuses/quote"],
      ["PUT", "/v1/wristbands/04AA/transactions"],
    ];
    for (const [method, path] of cases) {
      const res = await api.request(path, { method, headers: { authorization: `Bearer ${key}` } });
      expectError(res, 405, "invalid_request_error", "method_not_allowed");
      expect(res.headers.get("allow")).toMatch(/\bGET\b/);
      expect(res.headers.get("allow")).not.toContain(method);
    }
  });

  it("a service failure is 500 internal_error, logged, without message or stack", async () => {
    const key = await readKey();
    const failure = new Error("secret detail at /some/path");
    const spy = vi.spyOn(api.services.reads, "listTickets").mockRejectedValue(failure);
    const before = api.errors.length;
    const res = await api.get("/v1/tickets", key);
    const error = expectError(res, 500, "api_error", "internal_error", undefined);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(res.text).not.toContain("secret detail");
    expect(res.text).not.toContain("/some/path");
    expect(res.text).not.toMatch(/\bat [^ ]+ \(|\.ts:\d+|stack/i);
    expect(error.message).not.toContain("secret");
    expect(api.errors.length).toBe(before + 1);
    expect(api.errors[api.errors.length - 1]).toBe(failure);

    // The next request is served normally.
    spy.mockRestore();
    expectOk(await api.get("/v1/tickets?limit=1", key), TicketList);
  });

  it("a synchronous throw in a handler is a 500 too", async () => {
    const key = await readKey();
    const failure = new TypeError("cannot read properties of undefined (reading 'x') at /srv/app.ts:12");
    vi.spyOn(api.services.catalog, "toZones").mockImplementation(() => {
      throw failure;
    });
    const res = await api.get("/v1/zones", key);
    expectError(res, 500, "api_error", "internal_error");
    expect(res.text).not.toContain("/srv/app.ts");
    expect(api.errors).toContain(failure);
  });
});
