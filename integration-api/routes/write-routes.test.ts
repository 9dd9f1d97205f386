import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as q from "../../lib/contract/requests";
import * as r from "../../lib/contract/resources";
import { newId } from "../ids";
import { nowOrigin } from "../services/write-service";
import { ledgerDifferences } from "../store/ledger-store";
import { writeStore } from "../store/write-store";
import { expectError, expectOk } from "../testing/expect-api";
import { createTestApi, TEST_NOW, type TestApi, type TestResponse } from "../testing/test-api";
import {
  type DemoCatalog,
  demoCatalog,
  poster,
  rowCounts,
  stateDigest,
  uniqueCode,
} from "../testing/write-api";

/**
 * Every write endpoint of /v1 over HTTP: each transition and each 409 of the decisions, scopes,
 * activation and rate-limit buckets, checked against the store. The clock is frozen at TEST_NOW
 * (Day 3 of the demo event, inside the "Happy hour" bonus window), as if the event were live.
 */

let api: TestApi;
let cat: DemoCatalog;
let post: ReturnType<typeof poster>;
/** Every scope the write side needs, activated, with quotas no test can exhaust. */
let key: string;

const HIGH_LIMITS = { read: 100_000, write: 100_000, checkin: 100_000, access: 100_000 };
const WRITE_SCOPES = ["tickets.write", "checkins.write", "cashless.write"] as const;
const READ_SCOPES = ["event.read", "tickets.read", "checkins.read", "cashless.read", "reports.read"] as const;

const TicketList = r.ListEnvelope(r.Ticket);
const TopupList = r.ListEnvelope(r.Topup);
const CheckinList = r.ListEnvelope(r.Checkin);

beforeAll(async () => {
  api = await createTestApi();
  cat = await demoCatalog(api.db);
  post = poster(api);
  key = (
    await api.createKey({
      scopes: [...WRITE_SCOPES, ...READ_SCOPES],
      activate: true,
      rate_limits: HIGH_LIMITS,
    })
  ).key;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(TEST_NOW);
});

afterAll(async () => {
  vi.useRealTimers();
  await api?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const sql = <T>(text: string, params?: unknown[]) => api.db.query<T>(text, params);
const NOW = TEST_NOW.toISOString();
/** Day 3, the day TEST_NOW falls in. */
const today = () => cat.days[2];
const unknownId = "0123456789abcdef01234567";

async function snapshot() {
  return { counts: await rowCounts(api.db), digest: await stateDigest(api.db) };
}

/** Runs `fn` and asserts that no ticket, wristband, top-up, scan or sale changed. */
async function expectNothingWritten(fn: () => Promise<void>) {
  const before = await snapshot();
  await fn();
  expect(await snapshot()).toEqual(before);
}

function newTicket(overrides: Partial<q.NewTicket> = {}): q.NewTicket {
  return {
    ticket_type_id: cat.type("4-Day Pass").id,
    attendee: { name: "Ada Lovelace", email: "ada@example.com" },
    valid_days: cat.days.map((d) => d.id),
    ...overrides,
  };
}

async function createTicket(overrides: Partial<q.NewTicket> = {}): Promise<r.Ticket> {
  const res = await post("/v1/tickets", key, { tickets: [newTicket(overrides)] });
  return expectOk(res, TicketList, 201).data[0];
}

async function checkIn(code: string, body: unknown) {
  return post(`/v1/tickets/${encodeURIComponent(code)}/check-in`, key, body);
}

/** A fresh ticket checked in with a fresh wristband: an active wristband of a person with no bonus yet. */
async function freshWristband(overrides: Partial<q.NewTicket> = {}) {
  const ticket = await createTicket(overrides);
  const nfc = uniqueCode("NFC");
  const uhf = uniqueCode("UHF");
  const res = await checkIn(ticket.code, { wristband: { nfc, uhf } });
  const checkedIn = expectOk(res, r.Ticket);
  return { ticket: checkedIn, nfc, uhf, wristbandId: checkedIn.wristband!.id };
}

/**
 * A wristband in a status the public API never sets (blocked, lost and released are the
 * organiser's doing; pending_review comes from late offline gates), so the test does not depend on
 * what the seed happens to contain.
 */
async function wristbandWithStatus(status: r.WristbandStatus) {
  const made = await freshWristband();
  await sql("update wristbands set status = $2 where id = $1", [made.wristbandId, status]);
  return made;
}

/** An anonymous wristband (bought at a top-up desk, no ticket), active. */
async function anonymousWristband() {
  const id = newId(new Date());
  const nfc = uniqueCode("ANON");
  await writeStore.insertWristband(api.db, {
    id,
    nfc,
    uhf: null,
    status: "active",
    balance: 0,
    promo_balance: 0,
    attendee_name: null,
    ticket_id: null,
    zone_ids: [cat.zone("General Area").id],
    valid_day_ids: [today().id],
    created_at: new Date(),
    updated_at: new Date(),
  });
  return { id, nfc };
}

/**
 * A pending_review pair made the way production makes one: the ticket is checked in with wristband
 * A, which gets money; then an offline gate syncs a check-in of the same ticket with wristband B.
 */
async function pendingPair() {
  const first = await freshWristband();
  expectOk(
    await post("/v1/topups", key, {
      code: first.nfc,
      amount: 2000,
      payment_method: "card",
      bonus_amount: 300,
      bonus_rule: cat.rule("Happy hour").id,
    }),
    r.Topup,
    201,
  );
  const secondNfc = uniqueCode("NFC");
  const outcome = await api.db.transaction((tx) =>
    api.services.writes.syncOfflineCheckIn(
      tx,
      first.ticket.code,
      { nfc: secondNfc },
      nowOrigin(api.services.clock()),
    ),
  );
  expect(outcome).toBe("pending_review");
  const [second] = await sql<{ id: string }>("select id from wristbands where nfc = $1", [secondNfc]);
  return {
    ticket: first.ticket,
    first: { id: first.wristbandId, nfc: first.nfc },
    second: { id: second.id, nfc: secondNfc },
  };
}

async function wristbandRow(id: string) {
  const [row] = await sql<{
    id: string;
    nfc: string;
    status: string;
    balance: number;
    promo_balance: number;
    ticket_id: string | null;
    zone_ids: string[];
    valid_day_ids: string[];
  }>("select * from wristbands where id = $1", [id]);
  return row;
}

async function ticketRow(code: string) {
  const [row] = await sql<{
    id: string;
    status: string;
    wristband_id: string | null;
    document_number: string | null;
    birth: string | null;
    updated_at: string;
  }>("select *, to_char(birth_date, 'YYYY-MM-DD') as birth from tickets where code = $1", [code]);
  return row;
}

const topupsOf = (wristbandId: string) =>
  sql<{
    id: string;
    direction: string;
    amount: number;
    previous_balance: number;
    new_balance: number;
    payment_method: string;
    nature: string;
    status: string;
    bonus_rule_id: string | null;
    created_at: string;
  }>("select * from topups where wristband_id = $1 order by id", [wristbandId]);

// --------------------------------------------------------------------------------------------

describe("POST /v1/tickets", () => {
  it("creates tickets: 201 list envelope, generated codes, document as last4, birth date never returned", async () => {
    const vip = cat.type("VIP 4-Day");
    const code = uniqueCode("GIVEN");
    const before = await rowCounts(api.db);
    const res = await post("/v1/tickets", key, {
      tickets: [
        {
          code,
          ticket_type_id: vip.id,
          attendee: {
            name: "Grace Hopper",
            email: "grace@example.com",
            document: { type: "passport", number: "X1234567Z" },
            birth_date: "1906-12-09",
          },
          valid_days: [cat.days[2].id, cat.days[0].id, cat.days[0].id],
          extra_zones: [cat.zone("Camping").id],
        },
        newTicket(),
      ],
    });
    const list = expectOk(res, TicketList, 201);
    expect(list).toMatchObject({ object: "list", has_more: false, next_cursor: null });
    expect(list.data).toHaveLength(2);
    const [given, generated] = list.data;
    expect(given).toEqual({
      object: "ticket",
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      code,
      status: "active",
      ticket_type: { id: vip.id, name: "VIP 4-Day" },
      attendee: {
        name: "Grace Hopper",
        email: "grace@example.com",
        document: { type: "passport", last4: "567Z" },
      },
      valid_days: [
        { id: cat.days[0].id, name: cat.days[0].name },
        { id: cat.days[2].id, name: cat.days[2].name },
      ],
      extra_zones: [{ id: cat.zone("Camping").id, name: "Camping" }],
      wristband: null,
      checked_in_at: null,
      created_at: NOW,
      updated_at: NOW,
    });
    expect(generated.code).toMatch(/^TK-[A-Z2-9]{8}$/);
    expect(generated.attendee.document).toBeNull();
    expect(generated.id > given.id).toBe(true);
    // The full document number and the birth date are stored, never returned.
    expect(res.text).not.toContain("X1234567Z");
    expect(res.text).not.toContain("1906");
    expect(res.text).not.toContain("birth");
    expect(await ticketRow(code)).toMatchObject({ document_number: "X1234567Z", birth: "1906-12-09" });
    expect((await rowCounts(api.db)).tickets).toBe(before.tickets + 2);
    // The read side returns the same ticket.
    const read = await api.get(`/v1/tickets/${code}`, key);
    expect(expectOk(read, r.Ticket)).toEqual(given);
    expect(read.text).not.toContain("X1234567Z");
  });

  it("refuses an empty batch (400 invalid_parameter) and one over 500 (400 batch_too_large)", async () => {
    await expectNothingWritten(async () => {
      expectError(
        await post("/v1/tickets", key, { tickets: [] }),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "tickets",
      );
      const tickets = Array.from({ length: 501 }, () => newTicket());
      expectError(
        await post("/v1/tickets", key, { tickets }),
        400,
        "invalid_request_error",
        "batch_too_large",
        "tickets",
      );
    });
  });

  it("is all or nothing: a taken code in row 3 is 409 ticket_code_taken at tickets[3].code, nothing written", async () => {
    const [existing] = await sql<{ code: string }>("select code from tickets order by id limit 1");
    const codes = Array.from({ length: 5 }, () => uniqueCode("BATCH"));
    codes[3] = existing.code;
    await expectNothingWritten(async () => {
      const res = await post("/v1/tickets", key, { tickets: codes.map((code) => newTicket({ code })) });
      expectError(res, 409, "conflict_error", "ticket_code_taken", "tickets[3].code");
    });
    const fresh = codes.filter((c) => c !== existing.code);
    expect(await sql("select code from tickets where code = any($1::text[])", [fresh])).toEqual([]);
  });

  it("refuses a code that appears twice in the batch, nothing written", async () => {
    const codes = Array.from({ length: 5 }, () => uniqueCode("DUP"));
    codes[4] = codes[1];
    await expectNothingWritten(async () => {
      const res = await post("/v1/tickets", key, { tickets: codes.map((code) => newTicket({ code })) });
      expectError(res, 409, "conflict_error", "ticket_code_taken", "tickets[4].code");
    });
  });

  it("names the nested field at fault in 400s, nothing written", async () => {
    const batch = (row: number, ticket: Record<string, unknown>) => {
      const tickets: unknown[] = Array.from({ length: 5 }, () => newTicket());
      tickets[row] = ticket;
      return { tickets };
    };
    const base = newTicket() as unknown as Record<string, unknown>;
    const attendee = base.attendee as Record<string, unknown>;
    const cases: [unknown, string, string][] = [
      [batch(2, { ...base, ticket_type_id: unknownId }), "invalid_parameter", "tickets[2].ticket_type_id"],
      [batch(1, { ...base, ticket_type_id: "VIP" }), "invalid_parameter", "tickets[1].ticket_type_id"],
      [
        batch(0, { ...base, valid_days: [cat.days[0].id, unknownId] }),
        "invalid_parameter",
        "tickets[0].valid_days[1]",
      ],
      [batch(3, { ...base, valid_days: ["day-1"] }), "invalid_parameter", "tickets[3].valid_days[0]"],
      [batch(4, { ...base, valid_days: [] }), "invalid_parameter", "tickets[4].valid_days"],
      [batch(3, { ...base, extra_zones: [unknownId] }), "invalid_parameter", "tickets[3].extra_zones[0]"],
      [
        batch(2, { ...base, attendee: { ...attendee, email: "not-an-email" } }),
        "invalid_parameter",
        "tickets[2].attendee.email",
      ],
      [
        batch(0, { ...base, attendee: { email: "a@example.com" } }),
        "parameter_missing",
        "tickets[0].attendee.name",
      ],
      [
        batch(1, { ...base, attendee: { ...attendee, document: { type: "id", number: "12" } } }),
        "invalid_parameter",
        "tickets[1].attendee.document.number",
      ],
      [
        batch(1, { ...base, attendee: { ...attendee, birth_date: "1990-02-30" } }),
        "invalid_parameter",
        "tickets[1].attendee.birth_date",
      ],
      [batch(4, { ...base, code: "a b" }), "invalid_parameter", "tickets[4].code"],
      [batch(2, { ...base, nickname: "x" }), "unknown_parameter", "tickets[2].nickname"],
      [{ tickets: newTicket() }, "invalid_parameter", "tickets"],
      [{}, "parameter_missing", "tickets"],
    ];
    await expectNothingWritten(async () => {
      for (const [body, code, param] of cases) {
        expectError(await post("/v1/tickets", key, body), 400, "invalid_request_error", code, param);
      }
    });
  });

  it("refuses a ticket type outside the key's restriction as if it did not exist", async () => {
    const restricted = (
      await api.createKey({
        scopes: ["tickets.write"],
        activate: true,
        restrictions: { ticket_type_ids: [cat.type("Day Ticket").id], day_ids: [] },
      })
    ).key;
    await expectNothingWritten(async () => {
      const res = await post("/v1/tickets", restricted, { tickets: [newTicket()] });
      expectError(res, 400, "invalid_request_error", "invalid_parameter", "tickets[0].ticket_type_id");
    });
  });

  it("creates a batch of 500 in one call", async () => {
    const before = await rowCounts(api.db);
    const tickets = Array.from({ length: 500 }, (_, i) =>
      newTicket({ attendee: { name: `Guest ${i}`, email: `guest${i}@example.com` } }),
    );
    const list = expectOk(await post("/v1/tickets", key, { tickets }), TicketList, 201);
    expect(list.data).toHaveLength(500);
    expect(list.has_more).toBe(false);
    expect(new Set(list.data.map((t) => t.code)).size).toBe(500);
    expect(list.data.map((t) => t.attendee.name)).toEqual(tickets.map((t) => t.attendee.name));
    expect((await rowCounts(api.db)).tickets).toBe(before.tickets + 500);
  });
});

// --------------------------------------------------------------------------------------------

describe("POST /v1/tickets/{code}/cancel", () => {
  const cancel = (code: string, k = key) => post(`/v1/tickets/${encodeURIComponent(code)}/cancel`, k);

  it("moves active → inactive; a second cancel is 409 ticket_inactive", async () => {
    const ticket = await createTicket();
    vi.setSystemTime(new Date(TEST_NOW.getTime() + 5_000));
    try {
      const cancelled = expectOk(await cancel(ticket.code), r.Ticket);
      expect(cancelled).toEqual({
        ...ticket,
        status: "inactive",
        updated_at: new Date(TEST_NOW.getTime() + 5_000).toISOString(),
      });
      expect(expectOk(await api.get(`/v1/tickets/${ticket.code}`, key), r.Ticket)).toEqual(cancelled);
      await expectNothingWritten(async () => {
        expectError(await cancel(ticket.code), 409, "conflict_error", "ticket_inactive");
      });
    } finally {
      vi.setSystemTime(TEST_NOW);
    }
  });

  it("refuses a used ticket (409 ticket_already_used) and an unknown one (404)", async () => {
    const [used] = await sql<{ code: string }>("select code from tickets where status = 'used' limit 1");
    await expectNothingWritten(async () => {
      expectError(await cancel(used.code), 409, "conflict_error", "ticket_already_used");
      expectError(await cancel("NO-SUCH-TICKET"), 404, "not_found_error", "ticket_not_found");
    });
    expect((await ticketRow(used.code)).status).toBe("used");
  });
});

// --------------------------------------------------------------------------------------------

describe("POST /v1/tickets/{code}/check-in", () => {
  it("moves active → used and creates the wristband with the type's and extra zones and the ticket's days", async () => {
    const vip = cat.type("VIP 4-Day");
    const ticket = await createTicket({
      ticket_type_id: vip.id,
      valid_days: [cat.days[3].id, cat.days[1].id],
      extra_zones: [cat.zone("Camping").id, cat.zone("General Area").id],
    });
    const nfc = uniqueCode("NFC");
    const uhf = uniqueCode("UHF");
    const occurredAt = new Date(TEST_NOW.getTime() - 60_000).toISOString();
    const before = await rowCounts(api.db);
    const res = await checkIn(ticket.code, {
      wristband: { nfc, uhf },
      device_id: "gate-7",
      occurred_at: occurredAt,
    });
    const used = expectOk(res, r.Ticket);
    expect(used).toEqual({
      ...ticket,
      status: "used",
      wristband: { id: expect.stringMatching(/^[0-9a-f]{24}$/), nfc },
      checked_in_at: occurredAt,
      updated_at: NOW,
    });
    expect(await rowCounts(api.db)).toEqual({
      ...before,
      wristbands: before.wristbands + 1,
      scans: before.scans + 1,
    });
    const row = await wristbandRow(used.wristband!.id);
    expect(row).toMatchObject({ nfc, status: "active", balance: 0, promo_balance: 0, ticket_id: ticket.id });
    expect(row.zone_ids.sort()).toEqual([...vip.zone_ids, cat.zone("Camping").id].sort());
    expect(row.valid_day_ids.sort()).toEqual([cat.days[1].id, cat.days[3].id].sort());

    const wristband = expectOk(await api.get(`/v1/wristbands/${uhf}`, key), r.Wristband);
    expect(wristband).toMatchObject({
      id: used.wristband!.id,
      nfc,
      uhf,
      status: "active",
      balance: 0,
      promo_balance: 0,
      attendee: { name: ticket.attendee.name, anonymous: false },
      ticket: { code: ticket.code, ticket_type: "VIP 4-Day" },
      valid_days: [cat.days[1].id, cat.days[3].id],
    });
    expect(wristband.allowed_zones.map((z) => z.name).sort()).toEqual(
      ["Camping", "General Area", "VIP Lounge"].sort(),
    );

    // The check-in is in the scan log.
    const scans = await api.walk<r.Checkin>("/v1/checkins", key);
    const scan = scans.filter((s) => s.ticket_code === ticket.code);
    expect(scan).toEqual([
      {
        object: "checkin",
        id: expect.any(String),
        kind: "check_in",
        allowed: true,
        reason: null,
        ticket_code: ticket.code,
        wristband_id: used.wristband!.id,
        zone: null,
        device_id: "gate-7",
        day_id: cat.days[2].id,
        occurred_at: occurredAt,
        created_at: NOW,
      },
    ]);
    CheckinList.parse({ object: "list", data: scan, has_more: false, next_cursor: null });
  });

  it("returns the ticket unchanged when repeated with its own wristband; another wristband is 409 ticket_already_used", async () => {
    const { ticket, nfc } = await freshWristband();
    vi.setSystemTime(new Date(TEST_NOW.getTime() + 60_000));
    try {
      await expectNothingWritten(async () => {
        const again = await checkIn(ticket.code, { wristband: { nfc }, device_id: "gate-2" });
        expect(expectOk(again, r.Ticket)).toEqual(ticket);
        const other = await checkIn(ticket.code, { wristband: { nfc: uniqueCode("OTHER") } });
        expectError(other, 409, "conflict_error", "ticket_already_used");
      });
    } finally {
      vi.setSystemTime(TEST_NOW);
    }
  });

  it("refuses a cancelled ticket (409 ticket_inactive) and an unknown one (404)", async () => {
    const ticket = await createTicket();
    expectOk(await post(`/v1/tickets/${ticket.code}/cancel`, key), r.Ticket);
    await expectNothingWritten(async () => {
      const nfc = uniqueCode("NFC");
      expectError(
        await checkIn(ticket.code, { wristband: { nfc } }),
        409,
        "conflict_error",
        "ticket_inactive",
      );
      expectError(
        await checkIn("NO-SUCH-TICKET", { wristband: { nfc } }),
        404,
        "not_found_error",
        "ticket_not_found",
      );
    });
  });

  it("refuses an NFC or UHF linked to another ticket (409 wristband_already_linked)", async () => {
    const other = await freshWristband();
    const ticket = await createTicket();
    await expectNothingWritten(async () => {
      expectError(
        await checkIn(ticket.code, { wristband: { nfc: other.nfc } }),
        409,
        "conflict_error",
        "wristband_already_linked",
        "wristband.nfc",
      );
      expectError(
        await checkIn(ticket.code, { wristband: { nfc: uniqueCode("NFC"), uhf: other.uhf } }),
        409,
        "conflict_error",
        "wristband_already_linked",
        "wristband.uhf",
      );
    });
    expect((await ticketRow(ticket.code)).status).toBe("active");
  });

  it("links an active anonymous wristband, keeping its balance; refuses a non-active one", async () => {
    const anonymous = await anonymousWristband();
    expectOk(
      await post("/v1/topups", key, { code: anonymous.nfc, amount: 1500, payment_method: "cash" }),
      r.Topup,
      201,
    );
    const ticket = await createTicket({
      ticket_type_id: cat.type("VIP 4-Day").id,
      valid_days: [cat.days[3].id],
    });
    const used = expectOk(await checkIn(ticket.code, { wristband: { nfc: anonymous.nfc } }), r.Ticket);
    expect(used.wristband).toEqual({ id: anonymous.id, nfc: anonymous.nfc });
    const row = await wristbandRow(anonymous.id);
    expect(row).toMatchObject({
      ticket_id: ticket.id,
      balance: 1500,
      promo_balance: 0,
      valid_day_ids: [cat.days[3].id],
      status: "active",
    });
    expect(row.zone_ids.sort()).toEqual(cat.type("VIP 4-Day").zone_ids.slice().sort());

    const released = await anonymousWristband();
    await sql("update wristbands set status = 'released' where id = $1", [released.id]);
    const other = await createTicket();
    await expectNothingWritten(async () => {
      expectError(
        await checkIn(other.code, { wristband: { nfc: released.nfc } }),
        409,
        "conflict_error",
        "wristband_not_active",
      );
    });
  });
});

// --------------------------------------------------------------------------------------------

describe("POST /v1/access-checks", () => {
  const check = (body: unknown) => post("/v1/access-checks", key, body);

  it("answers allowed, zone_not_allowed, day_not_valid, unknown_code and wristband statuses; logs every check", async () => {
    const general = cat.zone("General Area");
    const vipZone = cat.zone("VIP Lounge");
    const todayPass = await freshWristband({
      ticket_type_id: cat.type("Day Ticket").id,
      valid_days: [today().id],
    });
    const otherDay = await freshWristband({
      ticket_type_id: cat.type("Day Ticket").id,
      valid_days: [cat.days[0].id],
    });
    const notCheckedIn = await createTicket({ ticket_type_id: cat.type("VIP 4-Day").id });
    const cancelled = await createTicket();
    expectOk(await post(`/v1/tickets/${cancelled.code}/cancel`, key), r.Ticket);
    const blocked = await wristbandWithStatus("blocked");
    const lost = await wristbandWithStatus("lost");
    const released = await wristbandWithStatus("released");
    const pending = (await pendingPair()).second;

    type Case = {
      code: string;
      zone: r.Ref;
      allowed: boolean;
      reason: string | null;
      wristband: string | null;
    };
    const cases: Case[] = [
      { code: todayPass.nfc, zone: general, allowed: true, reason: null, wristband: todayPass.wristbandId },
      { code: todayPass.uhf, zone: general, allowed: true, reason: null, wristband: todayPass.wristbandId },
      {
        code: todayPass.ticket.code,
        zone: general,
        allowed: true,
        reason: null,
        wristband: todayPass.wristbandId,
      },
      {
        code: todayPass.nfc,
        zone: vipZone,
        allowed: false,
        reason: "zone_not_allowed",
        wristband: todayPass.wristbandId,
      },
      {
        code: otherDay.nfc,
        zone: general,
        allowed: false,
        reason: "day_not_valid",
        wristband: otherDay.wristbandId,
      },
      { code: notCheckedIn.code, zone: vipZone, allowed: true, reason: null, wristband: null },
      {
        code: notCheckedIn.code,
        zone: cat.zone("Backstage"),
        allowed: false,
        reason: "zone_not_allowed",
        wristband: null,
      },
      { code: cancelled.code, zone: general, allowed: false, reason: "ticket_inactive", wristband: null },
      { code: "NO-SUCH-CODE", zone: general, allowed: false, reason: "unknown_code", wristband: null },
      { code: blocked.nfc, zone: general, allowed: false, reason: "blocked", wristband: blocked.wristbandId },
      { code: lost.uhf, zone: general, allowed: false, reason: "lost", wristband: lost.wristbandId },
      {
        code: released.nfc,
        zone: general,
        allowed: false,
        reason: "released",
        wristband: released.wristbandId,
      },
      { code: pending.nfc, zone: general, allowed: false, reason: "pending_review", wristband: pending.id },
    ];

    const before = await rowCounts(api.db);
    const digest = await stateDigest(api.db);
    for (const [i, c] of cases.entries()) {
      const res = await check({ code: c.code, zone_id: c.zone.id, device_id: `door-${i}` });
      const verdict = expectOk(res, q.AccessCheck);
      expect(verdict, `${c.code} ${c.zone.name}`).toMatchObject({
        object: "access_check",
        allowed: c.allowed,
        reason: c.reason,
        zone: c.zone,
        checked_at: NOW,
      });
      if (c.wristband) expect(verdict.wristband?.id).toBe(c.wristband);
      if (c.reason === "unknown_code" || c.code === notCheckedIn.code) expect(verdict.wristband).toBeNull();
      if (c.reason && ["blocked", "lost", "released", "pending_review"].includes(c.reason)) {
        expect(verdict.wristband?.status).toBe(c.reason);
      }
    }
    // Every check, allowed or not, is one scan; nothing else changed.
    expect(await rowCounts(api.db)).toEqual({ ...before, scans: before.scans + cases.length });
    expect(await stateDigest(api.db)).toBe(digest);
    const logged = (await api.walk<r.Checkin>("/v1/checkins", key)).filter((s) =>
      s.device_id?.startsWith("door-"),
    );
    expect(logged).toHaveLength(cases.length);
    for (const [i, c] of cases.entries()) {
      const scan = logged.find((s) => s.device_id === `door-${i}`);
      expect(scan, c.code).toMatchObject({
        kind: "access_check",
        allowed: c.allowed,
        reason: c.reason,
        zone: c.zone,
        day_id: today().id,
        occurred_at: NOW,
      });
      if (c.wristband) expect(scan?.wristband_id).toBe(c.wristband);
    }
  });

  it("refuses an unknown zone (400 invalid_parameter zone_id) without logging", async () => {
    const { nfc } = await freshWristband();
    await expectNothingWritten(async () => {
      expectError(
        await check({ code: nfc, zone_id: unknownId }),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "zone_id",
      );
      expectError(
        await check({ code: nfc, zone_id: "general" }),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "zone_id",
      );
      expectError(await check({ code: nfc }), 400, "invalid_request_error", "parameter_missing", "zone_id");
    });
  });
});

// --------------------------------------------------------------------------------------------

describe("POST /v1/topups", () => {
  const topup = (body: Record<string, unknown>, k = key) => post("/v1/topups", k, body);
  const quote = async (amount: number, code: string) => {
    const res = await api.get(
      `/v1/topup-bonuses/quote?amounts=${amount}&code=${encodeURIComponent(code)}`,
      key,
    );
    return expectOk(res, r.TopupBonusQuote).data[0];
  };

  it("creates the paid record and, in the same transaction, the quoted bonus as its own promo record", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const happyHour = cat.rule("Happy hour");
    const offer = await quote(5000, nfc);
    expect(offer).toMatchObject({ amount: 5000, bonus_amount: 800, rule: { id: happyHour.id } });

    const res = await topup({
      code: nfc,
      amount: 5000,
      payment_method: "card",
      bonus_amount: offer.bonus_amount,
      bonus_rule: offer.rule!.id,
    });
    const paid = expectOk(res, r.Topup, 201);
    expect(paid).toEqual({
      object: "topup",
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      direction: "topup",
      amount: 5000,
      previous_balance: 0,
      new_balance: 5000,
      payment_method: "card",
      nature: "paid",
      status: "completed",
      wristband_id: wristbandId,
      day_id: today().id,
      device_id: null,
      occurred_at: NOW,
      created_at: NOW,
    });
    expect(await wristbandRow(wristbandId)).toMatchObject({ balance: 5000, promo_balance: 800 });
    const records = await topupsOf(wristbandId);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ id: paid.id, nature: "paid", bonus_rule_id: null });
    expect(records[1]).toMatchObject({
      direction: "topup",
      amount: 800,
      previous_balance: 0,
      new_balance: 800,
      payment_method: "promo",
      nature: "bonus",
      status: "completed",
      bonus_rule_id: happyHour.id,
    });
    const listed = (await api.walk<r.Topup>("/v1/topups", key)).filter((t) => t.wristband_id === wristbandId);
    expect(listed).toEqual([
      paid,
      expect.objectContaining({ id: records[1].id, nature: "bonus", payment_method: "promo" }),
    ]);
    TopupList.parse({ object: "list", data: listed, has_more: false, next_cursor: null });

    // The cap (2500 per person) limits later bonuses: 1700 left, then nothing.
    const capped = await quote(10000, nfc);
    expect(capped).toMatchObject({ bonus_amount: 1700, rule: { id: happyHour.id } });
    expectOk(
      await topup({
        code: nfc,
        amount: 10000,
        payment_method: "cash",
        bonus_amount: 1700,
        bonus_rule: happyHour.id,
      }),
      r.Topup,
      201,
    );
    expect(await quote(5000, nfc)).toMatchObject({ bonus_amount: 0, rule: null });
    const last = expectOk(await topup({ code: nfc, amount: 5000, payment_method: "online" }), r.Topup, 201);
    expect(last).toMatchObject({ previous_balance: 15000, new_balance: 20000 });
    expect(await wristbandRow(wristbandId)).toMatchObject({ balance: 20000, promo_balance: 2500 });
    expect((await topupsOf(wristbandId)).map((t) => t.nature)).toEqual([
      "paid",
      "bonus",
      "paid",
      "bonus",
      "paid",
    ]);
  });

  it("writes nothing when the bonus record fails: paid record and bonus commit together", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const offer = await quote(2000, nfc);
    expect(offer.bonus_amount).toBe(300);
    const insertTopup = writeStore.insertTopup;
    vi.spyOn(writeStore, "insertTopup")
      .mockImplementationOnce(insertTopup)
      .mockRejectedValueOnce(new Error("simulated failure"));
    await expectNothingWritten(async () => {
      const res = await topup({
        code: nfc,
        amount: 2000,
        payment_method: "card",
        bonus_amount: 300,
        bonus_rule: offer.rule!.id,
      });
      expectError(res, 500, "api_error", "internal_error");
    });
    expect(api.errors.splice(0)).toHaveLength(1);
    expect(await topupsOf(wristbandId)).toEqual([]);
  });

  it("refuses a bonus that differs from the fresh quote (409 bonus_mismatch), nothing written", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const happyHour = cat.rule("Happy hour");
    const festival = cat.rule("Festival top-up bonus");
    await expectNothingWritten(async () => {
      for (const body of [
        { amount: 5000 },
        { amount: 5000, bonus_amount: 400, bonus_rule: happyHour.id },
        { amount: 5000, bonus_amount: 800, bonus_rule: festival.id },
        { amount: 5000, bonus_amount: 800, bonus_rule: null },
        { amount: 5000, bonus_amount: 800 },
        { amount: 1000, bonus_amount: 100, bonus_rule: festival.id },
        { amount: 1000, bonus_rule: festival.id },
      ]) {
        const res = await topup({ code: nfc, payment_method: "card", ...body });
        expectError(res, 409, "conflict_error", "bonus_mismatch", "bonus_amount");
      }
    });
    expect(await topupsOf(wristbandId)).toEqual([]);
    // Without a bonus at stake, omitting the fields (or sending 0 / null) is right.
    expectOk(await topup({ code: nfc, amount: 1000, payment_method: "cash" }), r.Topup, 201);
    expectOk(
      await topup({ code: nfc, amount: 1999, payment_method: "cash", bonus_amount: 0, bonus_rule: null }),
      r.Topup,
      201,
    );
    expect(await wristbandRow(wristbandId)).toMatchObject({ balance: 2999, promo_balance: 0 });
  });

  it("withdraws only the paid balance: above it is 409 insufficient_balance; promo_balance is never touched", async () => {
    const { nfc, wristbandId } = await freshWristband();
    expectOk(
      await topup({
        code: nfc,
        amount: 2000,
        payment_method: "card",
        bonus_amount: 300,
        bonus_rule: cat.rule("Happy hour").id,
      }),
      r.Topup,
      201,
    );
    await expectNothingWritten(async () => {
      const res = await topup({ code: nfc, amount: 2001, direction: "withdraw", payment_method: "cash" });
      expectError(res, 409, "conflict_error", "insufficient_balance", "amount");
    });
    const withdrawn = expectOk(
      await topup({ code: nfc, amount: 1500, direction: "withdraw", payment_method: "cash" }),
      r.Topup,
      201,
    );
    expect(withdrawn).toMatchObject({
      direction: "withdraw",
      amount: 1500,
      previous_balance: 2000,
      new_balance: 500,
      payment_method: "cash",
      nature: "paid",
    });
    expectOk(
      await topup({ code: nfc, amount: 500, direction: "withdraw", payment_method: "card" }),
      r.Topup,
      201,
    );
    expect(await wristbandRow(wristbandId)).toMatchObject({ balance: 0, promo_balance: 300 });
    // 300 of promo balance is there, but it is never refunded.
    await expectNothingWritten(async () => {
      const res = await topup({ code: nfc, amount: 1, direction: "withdraw", payment_method: "cash" });
      expectError(res, 409, "conflict_error", "insufficient_balance", "amount");
    });
    // A withdrawal carries no bonus.
    expectError(
      await topup({ code: nfc, amount: 1, direction: "withdraw", payment_method: "cash", bonus_amount: 5 }),
      400,
      "invalid_request_error",
      "invalid_parameter",
      "bonus_amount",
    );
  });

  it("names the field at fault in 400s, nothing written", async () => {
    const { nfc } = await freshWristband();
    const base = { code: nfc, amount: 1000, payment_method: "cash" };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, amount: 0 }, "invalid_parameter", "amount"],
      [{ ...base, amount: -100 }, "invalid_parameter", "amount"],
      [{ ...base, amount: 12.5 }, "invalid_parameter", "amount"],
      [{ ...base, amount: 1_000_000 }, "invalid_parameter", "amount"],
      [{ ...base, amount: "1000" }, "invalid_parameter", "amount"],
      [{ code: nfc, payment_method: "cash" }, "parameter_missing", "amount"],
      [{ code: nfc, amount: 1000 }, "parameter_missing", "payment_method"],
      [{ ...base, payment_method: "promo" }, "invalid_parameter", "payment_method"],
      [{ ...base, direction: "refund" }, "invalid_parameter", "direction"],
      [{ ...base, bonus_amount: -1 }, "invalid_parameter", "bonus_amount"],
      [{ ...base, bonus_rule: "happy" }, "invalid_parameter", "bonus_rule"],
      [{ ...base, code: "" }, "invalid_parameter", "code"],
      [{ ...base, tip: 100 }, "unknown_parameter", "tip"],
    ];
    await expectNothingWritten(async () => {
      for (const [body, code, param] of cases) {
        expectError(await topup(body), 400, "invalid_request_error", code, param);
      }
    });
  });

  it("adds a top-up onto a negative balance", async () => {
    const { nfc, wristbandId } = await freshWristband();
    await api.db.transaction((tx) =>
      api.services.writes.recordSale(
        tx,
        {
          wristbandId,
          paymentMethod: "wristband",
          online: false,
          lines: [
            {
              product_id: "5eed00000000000000000101",
              name: "Beer 33 cl",
              quantity: 3,
              unit_price: 450,
              included_quantity: 0,
              tax_type: "VAT",
              rate: 21,
            },
          ],
        },
        { occurredAt: TEST_NOW, createdAt: TEST_NOW, deviceId: "bar-1" },
      ),
    );
    expect(await wristbandRow(wristbandId)).toMatchObject({ balance: -1350, promo_balance: 0 });
    const paid = expectOk(await topup({ code: nfc, amount: 1000, payment_method: "cash" }), r.Topup, 201);
    expect(paid).toMatchObject({ previous_balance: -1350, new_balance: -350, amount: 1000 });
    expect(await wristbandRow(wristbandId)).toMatchObject({ balance: -350 });
  });

  it("tops up through a ticket code (its wristband)", async () => {
    const { ticket, wristbandId } = await freshWristband();
    const paid = expectOk(
      await topup({ code: ticket.code, amount: 700, payment_method: "cash" }),
      r.Topup,
      201,
    );
    expect(paid.wristband_id).toBe(wristbandId);
  });

  it("refuses a non-active wristband (409 wristband_not_active) and an unknown code (404)", async () => {
    const rows = [
      ...(await Promise.all(
        (["blocked", "lost", "released"] as const).map(async (status) => ({
          status,
          nfc: (await wristbandWithStatus(status)).nfc,
        })),
      )),
      { status: "pending_review", nfc: (await pendingPair()).first.nfc },
    ];
    const unlinked = await createTicket();
    await expectNothingWritten(async () => {
      for (const w of rows) {
        for (const direction of ["topup", "withdraw"]) {
          const res = await topup({ code: w.nfc, amount: 100, direction, payment_method: "cash" });
          expectError(res, 409, "conflict_error", "wristband_not_active", "code");
        }
      }
      expectError(
        await topup({ code: "NO-SUCH-WRISTBAND", amount: 100, payment_method: "cash" }),
        404,
        "not_found_error",
        "wristband_not_found",
        "code",
      );
      expectError(
        await topup({ code: unlinked.code, amount: 100, payment_method: "cash" }),
        404,
        "not_found_error",
        "wristband_not_found",
      );
    });
  });
});

// --------------------------------------------------------------------------------------------

describe("POST /v1/wristbands/{code}/review", () => {
  const review = (code: string, body: unknown = { decision: "keep" }, options = {}) =>
    post(`/v1/wristbands/${encodeURIComponent(code)}/review`, key, body, options);

  interface PairMember {
    id: string;
    nfc: string;
    balance: number;
    promo_balance: number;
    ticket_id: string;
    ticket_code: string;
    linked: boolean;
  }
  const MEMBERS = `select w.id, w.nfc, w.balance, w.promo_balance, w.ticket_id, t.code as ticket_code,
      (t.wristband_id = w.id) as linked
    from wristbands w join tickets t on t.id = w.ticket_id where w.status = 'pending_review'`;

  /** The pairs the demo seed made (before TEST_NOW), grouped by ticket. */
  async function seededPairs(): Promise<PairMember[][]> {
    const rows = await sql<PairMember>(`${MEMBERS} and w.created_at < $1 order by w.id`, [TEST_NOW]);
    const byTicket = new Map<string, PairMember[]>();
    for (const row of rows) byTicket.set(row.ticket_id, [...(byTicket.get(row.ticket_id) ?? []), row]);
    return [...byTicket.values()];
  }

  async function membersOf(ticketId: string): Promise<PairMember[]> {
    return sql<PairMember>(`${MEMBERS} and w.ticket_id = $1 order by w.id`, [ticketId]);
  }

  /**
   * After keeping `kept`: it is active, linked and holds both balances; `other` is blocked at 0/0;
   * each non-zero balance moved as a withdraw/topup pair of transfer records (a debt moves too).
   */
  async function expectKept(kept: PairMember, other: PairMember, at: string) {
    const ticket = await ticketRow(kept.ticket_code);
    expect(ticket.wristband_id).toBe(kept.id);
    expect(new Date(ticket.updated_at).toISOString()).toBe(at);
    expect(await wristbandRow(kept.id)).toMatchObject({
      status: "active",
      balance: kept.balance + other.balance,
      promo_balance: kept.promo_balance + other.promo_balance,
    });
    expect(await wristbandRow(other.id)).toMatchObject({ status: "blocked", balance: 0, promo_balance: 0 });
    const expectedOther: unknown[] = [];
    const expectedKept: unknown[] = [];
    for (const [column, method] of [
      ["balance", "transfer"],
      ["promo_balance", "promo"],
    ] as const) {
      const amount = other[column];
      if (amount === 0) continue;
      const record = (direction: string, previous: number, next: number) =>
        expect.objectContaining({
          direction,
          amount: Math.abs(amount),
          previous_balance: previous,
          new_balance: next,
          payment_method: method,
          nature: "transfer",
          status: "completed",
        });
      if (amount > 0) {
        expectedOther.push(record("withdraw", amount, 0));
        expectedKept.push(record("topup", kept[column], kept[column] + amount));
      } else {
        expectedKept.push(record("withdraw", kept[column], kept[column] + amount));
        expectedOther.push(record("topup", amount, 0));
      }
    }
    const transfers = async (id: string) =>
      (await topupsOf(id)).filter(
        (t) => t.nature === "transfer" && new Date(t.created_at).toISOString() === at,
      );
    expect(await transfers(other.id)).toEqual(expectedOther);
    expect(await transfers(kept.id)).toEqual(expectedKept);
    return expectedOther.length + expectedKept.length;
  }

  it("keeps one of a seeded pair: active and linked, the other blocked, balances moved as paired transfers", async () => {
    const pairs = await seededPairs();
    expect(pairs.length).toBeGreaterThanOrEqual(1);
    for (const pair of pairs) expect(pair).toHaveLength(2);
    const [pair] = pairs;
    const kept = pair.find((w) => !w.linked) ?? pair[1];
    const other = pair.find((w) => w.id !== kept.id)!;
    expect(other.balance + other.promo_balance).not.toBe(0);
    const before = await rowCounts(api.db);

    const res = await review(kept.nfc);
    const wristband = expectOk(res, r.Wristband);
    expect(wristband).toMatchObject({
      id: kept.id,
      nfc: kept.nfc,
      status: "active",
      balance: kept.balance + other.balance,
      promo_balance: kept.promo_balance + other.promo_balance,
      ticket: { code: kept.ticket_code },
      updated_at: NOW,
    });
    const records = await expectKept(kept, other, NOW);
    expect(await rowCounts(api.db)).toEqual({ ...before, topups: before.topups + records });
    const ticket = expectOk(await api.get(`/v1/tickets/${kept.ticket_code}`, key), r.Ticket);
    expect(ticket.wristband).toEqual({ id: kept.id, nfc: kept.nfc });

    // Neither member is in review any more.
    await expectNothingWritten(async () => {
      expectError(await review(kept.nfc), 409, "conflict_error", "wristband_not_in_review");
      expectError(await review(other.nfc), 409, "conflict_error", "wristband_not_in_review");
    });
  });

  it("is atomic: a failure half-way leaves both members untouched, and the same key may retry", async () => {
    const made = await pendingPair();
    const members = await membersOf(made.ticket.id);
    const kept = members.find((w) => w.id === made.second.id)!;
    const other = members.find((w) => w.id === made.first.id)!;
    expect(other).toMatchObject({ balance: 2000, promo_balance: 300, linked: true });
    const idempotencyKey = randomUUID();
    vi.spyOn(writeStore, "setWristbandStatus").mockRejectedValueOnce(new Error("simulated failure"));
    await expectNothingWritten(async () => {
      expectError(await review(kept.nfc, undefined, { idempotencyKey }), 500, "api_error", "internal_error");
    });
    expect(api.errors.splice(0)).toHaveLength(1);
    vi.restoreAllMocks();

    const later = new Date(TEST_NOW.getTime() + 1_000);
    vi.setSystemTime(later);
    try {
      expectOk(await review(kept.nfc, undefined, { idempotencyKey }), r.Wristband);
      expect(await expectKept(kept, other, later.toISOString())).toBe(4);
    } finally {
      vi.setSystemTime(TEST_NOW);
    }
  });

  it("moves a debt too: keeping the linked member takes over the other's negative balance", async () => {
    const made = await pendingPair();
    // The second wristband spent offline before its gate synced: its balance is negative.
    await api.db.transaction((tx) =>
      api.services.writes.recordSale(
        tx,
        {
          wristbandId: made.second.id,
          paymentMethod: "wristband",
          online: false,
          lines: [
            {
              product_id: "5eed00000000000000000106",
              name: "Gin & Tonic",
              quantity: 1,
              unit_price: 1000,
              included_quantity: 0,
              tax_type: "VAT",
              rate: 21,
            },
          ],
        },
        nowOrigin(api.services.clock()),
      ),
    );
    const members = await membersOf(made.ticket.id);
    const kept = members.find((w) => w.id === made.first.id)!;
    const other = members.find((w) => w.id === made.second.id)!;
    expect(other).toMatchObject({ balance: -1000, promo_balance: 0 });
    const wristband = expectOk(await review(kept.nfc), r.Wristband);
    expect(wristband).toMatchObject({ balance: 1000, promo_balance: 300, status: "active" });
    expect(await expectKept(kept, other, NOW)).toBe(2);
  });

  it("refuses a wristband not in review (409), an unknown one (404) and another decision (400)", async () => {
    const { nfc } = await freshWristband();
    await expectNothingWritten(async () => {
      expectError(await review(nfc), 409, "conflict_error", "wristband_not_in_review");
      expectError(await review("NO-SUCH-WRISTBAND"), 404, "not_found_error", "wristband_not_found");
      expectError(
        await review(nfc, { decision: "drop" }),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "decision",
      );
      expectError(await review(nfc, {}), 400, "invalid_request_error", "parameter_missing", "decision");
    });
  });
});

// --------------------------------------------------------------------------------------------

describe("codes whatever their case (api-v1-decisions, 2026-11-25)", () => {
  it("POST /tickets refuses a code that differs from an existing one only by case, nothing written", async () => {
    const existing = await createTicket({ code: uniqueCode("CASE") });
    const codes = Array.from({ length: 3 }, () => uniqueCode("CASEB"));
    codes[2] = existing.code.toLowerCase();
    await expectNothingWritten(async () => {
      const res = await post("/v1/tickets", key, { tickets: codes.map((code) => newTicket({ code })) });
      expectError(res, 409, "conflict_error", "ticket_code_taken", "tickets[2].code");
    });
  });

  it("POST /tickets refuses two codes of one batch that differ only by case, nothing written", async () => {
    const code = uniqueCode("CASEDUP");
    await expectNothingWritten(async () => {
      const res = await post("/v1/tickets", key, {
        tickets: [newTicket({ code }), newTicket({ code: code.toLowerCase() })],
      });
      expectError(res, 409, "conflict_error", "ticket_code_taken", "tickets[1].code");
    });
  });

  it("stores and returns a code as issued, lower case included", async () => {
    const code = uniqueCode("lower").toLowerCase();
    const created = await createTicket({ code });
    expect(created.code).toBe(code);
    expect(expectOk(await api.get(`/v1/tickets/${code.toUpperCase()}`, key), r.Ticket).code).toBe(code);
  });

  it("check-in and cancel find the ticket by its code in any case, with spaces around it", async () => {
    const ticket = await createTicket();
    const nfc = uniqueCode("NFCCASE");
    const used = expectOk(await checkIn(` ${ticket.code.toLowerCase()} `, { wristband: { nfc } }), r.Ticket);
    expect(used).toMatchObject({ code: ticket.code, status: "used", wristband: { nfc } });
    const other = await createTicket();
    const cancelled = expectOk(await post(`/v1/tickets/${other.code.toLowerCase()}/cancel`, key), r.Ticket);
    expect(cancelled).toMatchObject({ code: other.code, status: "inactive" });
  });

  it("a check-in's wristband code in another case is the existing wristband: repeated, the ticket is unchanged", async () => {
    const { ticket, nfc } = await freshWristband();
    await expectNothingWritten(async () => {
      expect(
        expectOk(await checkIn(ticket.code, { wristband: { nfc: nfc.toLowerCase() } }), r.Ticket),
      ).toEqual(ticket);
    });
    // Another ticket cannot take that wristband by typing it in lower case.
    const second = await createTicket();
    const taken = await checkIn(second.code, { wristband: { nfc: nfc.toLowerCase() } });
    expectError(taken, 409, "conflict_error", "wristband_already_linked", "wristband.nfc");
  });

  it("a check-in's UHF in another case that belongs to another wristband is refused", async () => {
    const other = await freshWristband();
    const ticket = await createTicket();
    await expectNothingWritten(async () => {
      const res = await checkIn(ticket.code, {
        wristband: { nfc: uniqueCode("NFCUHF"), uhf: other.uhf.toLowerCase() },
      });
      expectError(res, 409, "conflict_error", "wristband_already_linked", "wristband.uhf");
    });
  });

  it("a check-in links an anonymous wristband typed in another case, not a new one", async () => {
    const anonymous = await anonymousWristband();
    const ticket = await createTicket();
    const before = await rowCounts(api.db);
    const used = expectOk(
      await checkIn(ticket.code, { wristband: { nfc: anonymous.nfc.toLowerCase() } }),
      r.Ticket,
    );
    expect(used.wristband).toEqual({ id: anonymous.id, nfc: anonymous.nfc });
    expect((await rowCounts(api.db)).wristbands).toBe(before.wristbands);
  });

  it("access checks, top-ups and reviews find a wristband by its NFC or UHF in any case", async () => {
    const made = await freshWristband({
      ticket_type_id: cat.type("Day Ticket").id,
      valid_days: [today().id],
    });
    for (const code of [made.nfc.toLowerCase(), made.uhf.toLowerCase(), made.ticket.code.toLowerCase()]) {
      const res = await post("/v1/access-checks", key, { code, zone_id: cat.zone("General Area").id });
      expect(expectOk(res, q.AccessCheck)).toMatchObject({
        allowed: true,
        reason: null,
        wristband: { id: made.wristbandId },
      });
    }
    const quoted = expectOk(
      await api.get(`/v1/topup-bonuses/quote?amounts=1000&code=${made.uhf.toLowerCase()}`, key),
      r.TopupBonusQuote,
    ).data[0]!;
    const topup = await post("/v1/topups", key, {
      code: made.nfc.toLowerCase(),
      amount: 1000,
      payment_method: "cash",
      bonus_amount: quoted.bonus_amount,
      bonus_rule: quoted.rule?.id ?? null,
    });
    expect(expectOk(topup, r.Topup, 201).wristband_id).toBe(made.wristbandId);
    const pair = await pendingPair();
    const kept = await post(`/v1/wristbands/${pair.second.nfc.toLowerCase()}/review`, key, {
      decision: "keep",
    });
    expect(expectOk(kept, r.Wristband)).toMatchObject({ nfc: pair.second.nfc, status: "active" });
  });
});

describe("scopes, activation and rate-limit buckets", () => {
  type Endpoint = {
    name: string;
    scope: r.Scope;
    bucket: r.RateLimitBucket;
    /** A request that would succeed with the right key. */
    call: (k: string) => Promise<TestResponse>;
  };
  let endpoints: Endpoint[];

  beforeAll(async () => {
    const active = await createTicket();
    const checkedIn = await freshWristband();
    const pending = (await pendingPair()).second;
    endpoints = [
      {
        name: "POST /tickets",
        scope: "tickets.write",
        bucket: "write",
        call: (k) => post("/v1/tickets", k, { tickets: [newTicket()] }),
      },
      {
        name: "cancel",
        scope: "tickets.write",
        bucket: "write",
        call: (k) => post(`/v1/tickets/${active.code}/cancel`, k),
      },
      {
        name: "check-in",
        scope: "checkins.write",
        bucket: "checkin",
        call: (k) =>
          post(`/v1/tickets/${active.code}/check-in`, k, { wristband: { nfc: uniqueCode("NFC") } }),
      },
      {
        name: "access-checks",
        scope: "checkins.write",
        bucket: "access",
        call: (k) =>
          post("/v1/access-checks", k, { code: checkedIn.nfc, zone_id: cat.zone("General Area").id }),
      },
      {
        name: "POST /topups",
        scope: "cashless.write",
        bucket: "write",
        call: (k) => post("/v1/topups", k, { code: checkedIn.nfc, amount: 100, payment_method: "cash" }),
      },
      {
        name: "review",
        scope: "checkins.write",
        bucket: "write",
        call: (k) => post(`/v1/wristbands/${pending.nfc}/review`, k, { decision: "keep" }),
      },
    ];
  });

  const countIdempotencyKeys = async () =>
    (await sql<{ n: number }>("select count(*)::int as n from idempotency_keys"))[0].n;

  it("answers 403 insufficient_scope without the endpoint's scope (and claims nothing)", async () => {
    for (const endpoint of endpoints) {
      const others = r.scopes.filter((s) => s !== endpoint.scope && s !== "*");
      const k = (await api.createKey({ scopes: others, activate: true, rate_limits: HIGH_LIMITS })).key;
      const claimed = await countIdempotencyKeys();
      await expectNothingWritten(async () => {
        const res = await endpoint.call(k);
        expectError(res, 403, "permission_error", "insufficient_scope");
      });
      expect(await countIdempotencyKeys(), endpoint.name).toBe(claimed);
    }
  });

  it("answers 403 key_pending_activation for a write key not yet activated", async () => {
    const pendingKeys = [
      (await api.createKey({ scopes: [...WRITE_SCOPES, ...READ_SCOPES] })).key,
      (await api.createKey({ scopes: ["*"] })).key,
    ];
    for (const endpoint of endpoints) {
      for (const k of pendingKeys) {
        await expectNothingWritten(async () => {
          const res = await endpoint.call(k);
          expectError(res, 403, "permission_error", "key_pending_activation");
        });
      }
    }
  });

  async function limitedKey(limits: Partial<r.RateLimits>) {
    return (
      await api.createKey({
        scopes: [...WRITE_SCOPES, ...READ_SCOPES],
        activate: true,
        rate_limits: { ...HIGH_LIMITS, ...limits },
      })
    ).key;
  }

  it("shares one write bucket between POST /tickets, cancel, POST /topups and review", async () => {
    const k = await limitedKey({ write: 2 });
    const ticket = await createTicket();
    const first = await post("/v1/tickets", k, { tickets: [newTicket()] });
    expectOk(first, TicketList, 201);
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
    const second = await post(`/v1/tickets/${ticket.code}/cancel`, k);
    expectOk(second, r.Ticket);
    expect(second.headers.get("x-ratelimit-remaining")).toBe("0");

    const { nfc } = await freshWristband();
    const pending = (await pendingPair()).second;
    const claimed = await countIdempotencyKeys();
    await expectNothingWritten(async () => {
      for (const res of [
        await post("/v1/topups", k, { code: nfc, amount: 100, payment_method: "cash" }),
        await post(`/v1/wristbands/${pending.nfc}/review`, k, { decision: "keep" }),
        await post("/v1/tickets", k, { tickets: [newTicket()] }),
        await post(`/v1/tickets/${ticket.code}/cancel`, k),
      ]) {
        expectError(res, 429, "rate_limit_error", "rate_limit_exceeded");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(res.headers.get("x-ratelimit-limit")).toBe("2");
        expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      }
    });
    expect(await countIdempotencyKeys()).toBe(claimed);

    // The other buckets are untouched.
    const checkedIn = await post(`/v1/tickets/${(await createTicket()).code}/check-in`, k, {
      wristband: { nfc: uniqueCode("NFC") },
    });
    expectOk(checkedIn, r.Ticket);
    expect(checkedIn.headers.get("x-ratelimit-limit")).toBe(String(HIGH_LIMITS.checkin));
    const access = await post("/v1/access-checks", k, { code: nfc, zone_id: cat.zone("General Area").id });
    expectOk(access, q.AccessCheck);
    expect(access.headers.get("x-ratelimit-limit")).toBe(String(HIGH_LIMITS.access));
  });

  it("counts check-ins in the checkin bucket and access checks in the access bucket", async () => {
    const checkinKey = await limitedKey({ checkin: 1 });
    const a = await createTicket();
    const b = await createTicket();
    expectOk(
      await post(`/v1/tickets/${a.code}/check-in`, checkinKey, { wristband: { nfc: uniqueCode("NFC") } }),
      r.Ticket,
    );
    await expectNothingWritten(async () => {
      const res = await post(`/v1/tickets/${b.code}/check-in`, checkinKey, {
        wristband: { nfc: uniqueCode("NFC") },
      });
      expectError(res, 429, "rate_limit_error", "rate_limit_exceeded");
      expect(res.headers.get("x-ratelimit-limit")).toBe("1");
    });
    const zone = cat.zone("General Area").id;
    expectOk(await post("/v1/access-checks", checkinKey, { code: a.code, zone_id: zone }), q.AccessCheck);
    expectOk(await post("/v1/tickets", checkinKey, { tickets: [newTicket()] }), TicketList, 201);

    const accessKey = await limitedKey({ access: 1 });
    expectOk(await post("/v1/access-checks", accessKey, { code: a.code, zone_id: zone }), q.AccessCheck);
    await expectNothingWritten(async () => {
      const res = await post("/v1/access-checks", accessKey, { code: a.code, zone_id: zone });
      expectError(res, 429, "rate_limit_error", "rate_limit_exceeded");
    });
    expectOk(
      await post(`/v1/tickets/${b.code}/check-in`, accessKey, { wristband: { nfc: uniqueCode("NFC") } }),
      r.Ticket,
    );
  });
});

// --------------------------------------------------------------------------------------------

describe("after every write above", () => {
  it("keeps every wristband's balances equal to its records, and logged no unexpected error", async () => {
    const { checked, differences } = await ledgerDifferences(api.db);
    expect(checked).toBeGreaterThan(0);
    expect(differences).toEqual([]);
    expect(api.errors).toEqual([]);
  });
});
