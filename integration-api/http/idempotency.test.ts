import { createHash, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as q from "../../lib/contract/requests";
import * as r from "../../lib/contract/resources";
import { idempotencyStore } from "../store/idempotency-store";
import { ledgerDifferences } from "../store/ledger-store";
import { expectError, expectOk } from "../testing/expect-api";
import { createTestApi, type TestApi } from "../testing/test-api";
import {
  type DemoCatalog,
  demoCatalog,
  poster,
  rowCounts,
  stateDigest,
  uniqueCode,
} from "../testing/write-api";
import { canonicalBody } from "./idempotency";

/**
 * The Idempotency-Key contract of every POST: required and a UUID; a repeat replays the stored
 * bytes and runs nothing; a different request is 422; a running one is 409; only answers of
 * requests that ran (2xx, business 409) are stored, for 24 hours, per API key.
 * Amounts stay below every bonus tier, so no test depends on which bonus rules are valid now.
 */

let api: TestApi;
let cat: DemoCatalog;
let post: ReturnType<typeof poster>;
let key: string;
let keyId: string;

const LIMITS = { read: 100_000, write: 100_000, checkin: 100_000, access: 100_000 };
const SCOPES = [
  "tickets.write",
  "checkins.write",
  "cashless.write",
  "tickets.read",
  "cashless.read",
] as const;

beforeAll(async () => {
  api = await createTestApi();
  cat = await demoCatalog(api.db);
  post = poster(api);
  const created = await api.createKey({ scopes: [...SCOPES], activate: true, rate_limits: LIMITS });
  key = created.key;
  keyId = created.id;
});

afterAll(async () => {
  await api?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const sql = <T>(text: string, params?: unknown[]) => api.db.query<T>(text, params);
const TicketList = r.ListEnvelope(r.Ticket);

async function snapshot() {
  return { counts: await rowCounts(api.db), digest: await stateDigest(api.db) };
}
async function expectNothingWritten(fn: () => Promise<void>) {
  const before = await snapshot();
  await fn();
  expect(await snapshot()).toEqual(before);
}

const newTicket = () => ({
  ticket_type_id: cat.type("4-Day Pass").id,
  attendee: { name: "Ada Lovelace", email: "ada@example.com" },
  valid_days: [cat.days[0].id],
});

/** A fresh ticket checked in with a fresh wristband. */
async function freshWristband() {
  const ticket = expectOk(await post("/v1/tickets", key, { tickets: [newTicket()] }), TicketList, 201)
    .data[0];
  const nfc = uniqueCode("NFC");
  const checkedIn = expectOk(
    await post(`/v1/tickets/${ticket.code}/check-in`, key, { wristband: { nfc } }),
    r.Ticket,
  );
  return { ticket, nfc, wristbandId: checkedIn.wristband!.id };
}

const balanceOf = async (wristbandId: string) =>
  (await sql<{ balance: number }>("select balance from wristbands where id = $1", [wristbandId]))[0].balance;
const topupCount = async (wristbandId: string) =>
  (
    await sql<{ n: number }>("select count(*)::int as n from topups where wristband_id = $1", [wristbandId])
  )[0].n;
const storedKeys = async (idempotencyKey: string) =>
  sql<{
    api_key_id: string;
    response_status: number | null;
    response_body: string | null;
    created_at: string;
  }>("select * from idempotency_keys where key = $1", [idempotencyKey]);

/** Inserts a claim row as a request would have left it. */
async function insertClaim(row: {
  key: string;
  path: string;
  body: unknown;
  createdAt: Date;
  status?: number;
  responseBody?: string;
}) {
  const bodyHash = createHash("sha256")
    .update(canonicalBody(JSON.stringify(row.body)))
    .digest("hex");
  await sql(
    `insert into idempotency_keys (api_key_id, key, method, path, body_hash, response_status, response_body, created_at)
     values ($1, $2, 'POST', $3, $4, $5, $6, $7)`,
    [keyId, row.key, row.path, bodyHash, row.status ?? null, row.responseBody ?? null, row.createdAt],
  );
}

// --------------------------------------------------------------------------------------------

describe("the Idempotency-Key header", () => {
  const endpoints = () => [
    { path: "/v1/tickets", body: { tickets: [newTicket()] } },
    { path: "/v1/tickets/NO-SUCH/cancel", body: undefined },
    { path: "/v1/tickets/NO-SUCH/check-in", body: { wristband: { nfc: "X" } } },
    { path: "/v1/access-checks", body: { code: "X", zone_id: cat.zone("General Area").id } },
    { path: "/v1/topups", body: { code: "X", amount: 100, payment_method: "cash" } },
    { path: "/v1/wristbands/X/review", body: { decision: "keep" } },
  ];

  it("is required on every POST: 400 idempotency_key_missing", async () => {
    await expectNothingWritten(async () => {
      for (const { path, body } of endpoints()) {
        for (const headers of [{}, { "idempotency-key": "" }] as Record<string, string>[]) {
          const res = await post(path, key, body, { idempotencyKey: null, headers });
          expectError(res, 400, "invalid_request_error", "idempotency_key_missing", "Idempotency-Key");
        }
      }
    });
  });

  it("must be a UUID: 400 idempotency_key_invalid", async () => {
    const uuid = randomUUID();
    const invalid = [
      "abc",
      "12345",
      uuid.replaceAll("-", ""),
      `{${uuid}}`,
      `${uuid}0`,
      ` ${uuid}x`,
      "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
      "a".repeat(300),
    ];
    await expectNothingWritten(async () => {
      for (const { path, body } of endpoints()) {
        for (const idempotencyKey of invalid) {
          const res = await post(path, key, body, { idempotencyKey });
          expectError(res, 400, "invalid_request_error", "idempotency_key_invalid", "Idempotency-Key");
        }
      }
    });
    expect((await sql<{ n: number }>("select count(*)::int as n from idempotency_keys"))[0].n).toBe(0);
  });
});

// --------------------------------------------------------------------------------------------

describe("a repeated request", () => {
  it("replays identical status and bytes with Idempotent-Replayed: true, and runs nothing again", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const idempotencyKey = randomUUID();
    const body = { code: nfc, amount: 1234, payment_method: "card" };
    const first = await post("/v1/topups", key, body, { idempotencyKey });
    const created = expectOk(first, r.Topup, 201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const state = await snapshot();

    for (const variant of [idempotencyKey, idempotencyKey.toUpperCase()]) {
      const again = await post("/v1/topups", key, body, { idempotencyKey: variant });
      expect(again.status).toBe(201);
      expect(again.text).toBe(first.text);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.headers.get("content-type")).toMatch(/^application\/json/);
      expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    }
    expect(await snapshot()).toEqual(state);
    expect(await balanceOf(wristbandId)).toBe(1234);
    expect(await topupCount(wristbandId)).toBe(1);
    expect(created.new_balance).toBe(1234);
  });

  it("treats key order and whitespace in the JSON body as the same request", async () => {
    const idempotencyKey = randomUUID();
    const code = uniqueCode("IDEM");
    const ticket = { code, ...newTicket() };
    const first = await post("/v1/tickets", key, { tickets: [ticket] }, { idempotencyKey });
    expectOk(first, TicketList, 201);
    const reordered = `{
      "tickets" : [ { "valid_days": ${JSON.stringify(ticket.valid_days)},
        "attendee": {"email":"ada@example.com",   "name":"Ada Lovelace"},
        "ticket_type_id": "${ticket.ticket_type_id}", "code": "${code}" } ]
    }\n`;
    await expectNothingWritten(async () => {
      const again = await post("/v1/tickets", key, undefined, { idempotencyKey, raw: reordered });
      expect(again.status).toBe(201);
      expect(again.text).toBe(first.text);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    });
  });

  it("replays a stored business 409 as the same bytes, even after the state changed", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const idempotencyKey = randomUUID();
    const withdraw = { code: nfc, amount: 500, direction: "withdraw", payment_method: "cash" };
    const refused = await post("/v1/topups", key, withdraw, { idempotencyKey });
    expectError(refused, 409, "conflict_error", "insufficient_balance", "amount");
    expect(await storedKeys(idempotencyKey)).toMatchObject([
      { response_status: 409, response_body: refused.text },
    ]);

    // Money arrives; the same key still answers what it answered, and withdraws nothing.
    expectOk(
      await post("/v1/topups", key, { code: nfc, amount: 1000, payment_method: "cash" }),
      r.Topup,
      201,
    );
    await expectNothingWritten(async () => {
      const again = await post("/v1/topups", key, withdraw, { idempotencyKey });
      expect(again.status).toBe(409);
      expect(again.text).toBe(refused.text);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    });
    // A new key runs the withdrawal.
    expectOk(await post("/v1/topups", key, withdraw), r.Topup, 201);
    expect(await balanceOf(wristbandId)).toBe(500);
  });

  it("replays a cancel (no body) and a ticket conflict", async () => {
    const ticket = expectOk(await post("/v1/tickets", key, { tickets: [newTicket()] }), TicketList, 201)
      .data[0];
    const idempotencyKey = randomUUID();
    const first = await post(`/v1/tickets/${ticket.code}/cancel`, key, undefined, { idempotencyKey });
    expectOk(first, r.Ticket);
    const again = await post(`/v1/tickets/${ticket.code}/cancel`, key, undefined, { idempotencyKey });
    expect([again.status, again.text, again.headers.get("idempotent-replayed")]).toEqual([
      200,
      first.text,
      "true",
    ]);
    // A fresh key runs it: the ticket is already inactive.
    expectError(
      await post(`/v1/tickets/${ticket.code}/cancel`, key),
      409,
      "conflict_error",
      "ticket_inactive",
    );
  });
});

// --------------------------------------------------------------------------------------------

describe("a key reused for another request", () => {
  it("is 422 idempotency_key_reused for a different body or path, and runs nothing", async () => {
    const { nfc } = await freshWristband();
    const idempotencyKey = randomUUID();
    expectOk(
      await post("/v1/topups", key, { code: nfc, amount: 100, payment_method: "cash" }, { idempotencyKey }),
      r.Topup,
      201,
    );
    await expectNothingWritten(async () => {
      for (const [path, body] of [
        ["/v1/topups", { code: nfc, amount: 101, payment_method: "cash" }],
        ["/v1/topups", { code: nfc, amount: 100, payment_method: "card" }],
        ["/v1/topups", { code: nfc, amount: 100, payment_method: "cash", direction: "topup" }],
        ["/v1/access-checks", { code: nfc, zone_id: cat.zone("General Area").id }],
        ["/v1/tickets", { tickets: [newTicket()] }],
      ] as const) {
        const res = await post(path, key, body, { idempotencyKey });
        expectError(res, 422, "invalid_request_error", "idempotency_key_reused", "Idempotency-Key");
      }
    });
  });

  it("is independent on another API key", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const other = (await api.createKey({ scopes: ["cashless.write"], activate: true, rate_limits: LIMITS }))
      .key;
    const idempotencyKey = randomUUID();
    const body = { code: nfc, amount: 300, payment_method: "cash" };
    const mine = expectOk(await post("/v1/topups", key, body, { idempotencyKey }), r.Topup, 201);
    const theirs = await post("/v1/topups", other, body, { idempotencyKey });
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(expectOk(theirs, r.Topup, 201).id).not.toBe(mine.id);
    expect(await balanceOf(wristbandId)).toBe(600);
    // And a different body on the other key does not collide with mine either.
    const idempotencyKey2 = randomUUID();
    expectOk(await post("/v1/topups", key, body, { idempotencyKey: idempotencyKey2 }), r.Topup, 201);
    expectOk(
      await post("/v1/topups", other, { ...body, amount: 1 }, { idempotencyKey: idempotencyKey2 }),
      r.Topup,
      201,
    );
    expect(await balanceOf(wristbandId)).toBe(901);
  });
});

// --------------------------------------------------------------------------------------------

describe("answers that are not stored", () => {
  it("a validation 400 or a 404: the same key runs once the request is fixed", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const idempotencyKey = randomUUID();
    await expectNothingWritten(async () => {
      expectError(
        await post("/v1/topups", key, { code: nfc, amount: 0, payment_method: "cash" }, { idempotencyKey }),
        400,
        "invalid_request_error",
        "invalid_parameter",
        "amount",
      );
      expectError(
        await post("/v1/topups", key, "{not json", { idempotencyKey, raw: "{not json" }),
        400,
        "invalid_request_error",
        "invalid_json",
      );
      expectError(
        await post(
          "/v1/topups",
          key,
          { code: "NO-SUCH-WRISTBAND", amount: 100, payment_method: "cash" },
          { idempotencyKey },
        ),
        404,
        "not_found_error",
        "wristband_not_found",
      );
      // A 400 raised by the service, after the claim.
      expectError(
        await post(
          "/v1/topups",
          key,
          { code: nfc, amount: 100, direction: "withdraw", payment_method: "cash", bonus_amount: 5 },
          { idempotencyKey },
        ),
        400,
        "invalid_request_error",
        "invalid_parameter",
      );
    });
    expect(await storedKeys(idempotencyKey)).toEqual([]);
    const body = { code: nfc, amount: 100, payment_method: "cash" };
    const ran = await post("/v1/topups", key, body, { idempotencyKey });
    expectOk(ran, r.Topup, 201);
    expect(ran.headers.get("idempotent-replayed")).toBeNull();
    expect(await balanceOf(wristbandId)).toBe(100);
  });

  it("a 500: the same key may retry, and the effects rolled back with the answer", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const idempotencyKey = randomUUID();
    const body = { code: nfc, amount: 700, payment_method: "card" };
    // The answer is stored in the transaction of the effects: if storing fails, nothing happened.
    vi.spyOn(idempotencyStore, "complete").mockRejectedValueOnce(new Error("simulated failure"));
    await expectNothingWritten(async () => {
      expectError(
        await post("/v1/topups", key, body, { idempotencyKey }),
        500,
        "api_error",
        "internal_error",
      );
    });
    expect(api.errors.splice(0)).toHaveLength(1);
    expect(await storedKeys(idempotencyKey)).toEqual([]);
    vi.restoreAllMocks();
    expectOk(await post("/v1/topups", key, body, { idempotencyKey }), r.Topup, 201);
    expect(await balanceOf(wristbandId)).toBe(700);
    expect(await topupCount(wristbandId)).toBe(1);
  });

  it("401, 403 and 429 never claim the key", async () => {
    const limited = await api.createKey({
      scopes: ["cashless.write"],
      activate: true,
      rate_limits: { ...LIMITS, write: 1 },
    });
    const { nfc } = await freshWristband();
    const body = { code: nfc, amount: 100, payment_method: "cash" };
    expectOk(await post("/v1/topups", limited.key, body), r.Topup, 201);
    const idempotencyKey = randomUUID();
    expectError(
      await post("/v1/topups", limited.key, body, { idempotencyKey }),
      429,
      "rate_limit_error",
      "rate_limit_exceeded",
    );
    expectError(
      await post("/v1/tickets", limited.key, { tickets: [newTicket()] }, { idempotencyKey }),
      403,
      "permission_error",
      "insufficient_scope",
    );
    expectError(
      await post("/v1/topups", `eak_test_${"A".repeat(43)}`, body, { idempotencyKey }),
      401,
      "authentication_error",
      "invalid_api_key",
    );
    expect(await storedKeys(idempotencyKey)).toEqual([]);
  });
});

// --------------------------------------------------------------------------------------------

describe("claims in flight, abandoned and expired", () => {
  it("a claim still running is 409 idempotency_key_in_use; a different body is still 422", async () => {
    const { nfc } = await freshWristband();
    const idempotencyKey = randomUUID();
    const body = { code: nfc, amount: 100, payment_method: "cash" };
    await insertClaim({
      key: idempotencyKey,
      path: "/v1/topups",
      body,
      createdAt: new Date(Date.now() - 50_000),
    });
    await expectNothingWritten(async () => {
      expectError(
        await post("/v1/topups", key, body, { idempotencyKey }),
        409,
        "conflict_error",
        "idempotency_key_in_use",
        "Idempotency-Key",
      );
      expectError(
        await post("/v1/topups", key, { ...body, amount: 5 }, { idempotencyKey }),
        422,
        "invalid_request_error",
        "idempotency_key_reused",
      );
    });
    // The in-use answer is not stored over the running claim.
    expect(await storedKeys(idempotencyKey)).toMatchObject([{ response_status: null, response_body: null }]);
  });

  it("a claim abandoned more than 60 s ago is taken over", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const idempotencyKey = randomUUID();
    const body = { code: nfc, amount: 400, payment_method: "cash" };
    await insertClaim({
      key: idempotencyKey,
      path: "/v1/topups",
      body,
      createdAt: new Date(Date.now() - 61_000),
    });
    const sent = Date.now();
    const res = await post("/v1/topups", key, body, { idempotencyKey });
    const answered = Date.now();
    expectOk(res, r.Topup, 201);
    expect(await balanceOf(wristbandId)).toBe(400);
    const [stored] = await storedKeys(idempotencyKey);
    expect(stored).toMatchObject({ response_status: 201, response_body: res.text });
    // The claim is the new request's: taken while it ran (however long that was), not the old one's.
    const claimedAt = new Date(stored.created_at).getTime();
    expect(claimedAt).toBeGreaterThanOrEqual(sent);
    expect(claimedAt).toBeLessThanOrEqual(answered);
  });

  it("a key older than 24 hours is forgotten: the request runs again", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const body = { code: nfc, amount: 250, payment_method: "cash" };
    const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 60_000);
    const sameBody = randomUUID();
    const otherBody = randomUUID();
    const stale = JSON.stringify({ stale: true });
    await insertClaim({
      key: sameBody,
      path: "/v1/topups",
      body,
      createdAt: dayAgo,
      status: 201,
      responseBody: stale,
    });
    await insertClaim({
      key: otherBody,
      path: "/v1/tickets",
      body: { tickets: [] },
      createdAt: dayAgo,
      status: 201,
      responseBody: stale,
    });
    for (const idempotencyKey of [sameBody, otherBody]) {
      const res = await post("/v1/topups", key, body, { idempotencyKey });
      expectOk(res, r.Topup, 201);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
      expect(await storedKeys(idempotencyKey)).toMatchObject([
        { response_status: 201, response_body: res.text },
      ]);
    }
    expect(await balanceOf(wristbandId)).toBe(500);
    // Within 24 hours it is still remembered.
    const recent = randomUUID();
    await insertClaim({
      key: recent,
      path: "/v1/topups",
      body,
      createdAt: new Date(Date.now() - 23 * 60 * 60 * 1000),
      status: 201,
      responseBody: stale,
    });
    const replay = await post("/v1/topups", key, body, { idempotencyKey: recent });
    expect([replay.status, replay.text]).toEqual([201, stale]);
    expect(await balanceOf(wristbandId)).toBe(500);
  });
});

// --------------------------------------------------------------------------------------------

describe("concurrent requests with one key", () => {
  it("execute exactly once: the others are replays or 409 idempotency_key_in_use", async () => {
    const { nfc, wristbandId } = await freshWristband();
    const idempotencyKey = randomUUID();
    const body = { code: nfc, amount: 1500, payment_method: "card" };
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post("/v1/topups", key, body, { idempotencyKey })),
    );
    const ran = responses.filter((res) => res.status === 201 && !res.headers.get("idempotent-replayed"));
    expect(ran).toHaveLength(1);
    for (const res of responses) {
      if (res === ran[0]) continue;
      if (res.status === 201) {
        expect(res.headers.get("idempotent-replayed")).toBe("true");
        expect(res.text).toBe(ran[0].text);
      } else {
        expectError(res, 409, "conflict_error", "idempotency_key_in_use");
      }
    }
    expect(await topupCount(wristbandId)).toBe(1);
    expect(await balanceOf(wristbandId)).toBe(1500);
    const later = await post("/v1/topups", key, body, { idempotencyKey });
    expect([later.status, later.text, later.headers.get("idempotent-replayed")]).toEqual([
      201,
      ran[0].text,
      "true",
    ]);
  });

  it("with ticket batches and check-ins too", async () => {
    const idempotencyKey = randomUUID();
    const code = uniqueCode("RACE");
    const before = await rowCounts(api.db);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        post("/v1/tickets", key, { tickets: [{ code, ...newTicket() }, newTicket()] }, { idempotencyKey }),
      ),
    );
    expect(
      responses.filter((res) => res.status === 201 && !res.headers.get("idempotent-replayed")),
    ).toHaveLength(1);
    for (const res of responses) expect([201, 409]).toContain(res.status);
    expect((await rowCounts(api.db)).tickets).toBe(before.tickets + 2);

    const checkInKey = randomUUID();
    const nfc = uniqueCode("NFC");
    const checks = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(`/v1/tickets/${code}/check-in`, key, { wristband: { nfc } }, { idempotencyKey: checkInKey }),
      ),
    );
    for (const res of checks) expect([200, 409]).toContain(res.status);
    expect(
      checks.filter((res) => res.status === 200 && !res.headers.get("idempotent-replayed")),
    ).toHaveLength(1);
    const after = await rowCounts(api.db);
    expect(after.wristbands).toBe(before.wristbands + 1);
    expect(after.scans).toBe(before.scans + 1);
    const verdict = await post("/v1/access-checks", key, { code: nfc, zone_id: cat.zone("General Area").id });
    expectOk(verdict, q.AccessCheck);
  });
});

describe("after every request above", () => {
  it("keeps the ledger identity and logged only the simulated failures", async () => {
    expect((await ledgerDifferences(api.db)).differences).toEqual([]);
    expect(api.errors).toEqual([]);
  });
});
