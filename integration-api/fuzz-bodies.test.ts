import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorBody, errorCatalog } from "../lib/contract/errors";
import * as r from "../lib/contract/resources";
import { expectOk } from "./testing/expect-api";
import { createTestApi, type TestApi } from "./testing/test-api";
import {
  type DemoCatalog,
  demoCatalog,
  poster,
  rowCounts,
  stateDigest,
  uniqueCode,
} from "./testing/write-api";

/**
 * Fuzz of every request body of every POST endpoint: one field (or the whole body, or a path
 * code) replaced by junk of any type, fields deleted or added, non-JSON bodies, wrong or missing
 * content types. Whatever arrives, the answer is a 2xx or a 4xx in the error envelope with a
 * catalogued code — never a 5xx — nothing reaches the 500 logger, and a refused request writes
 * nothing (tickets, wristbands, top-ups, scans, sales and their state are unchanged).
 */

let api: TestApi;
let cat: DemoCatalog;
let post: ReturnType<typeof poster>;
let key: string;

/** Real codes the bodies point at, so mutated bodies reach the store and the services. */
const fixture = { activeTicket: "", usedTicket: "", nfc: "", uhf: "" };

beforeAll(async () => {
  api = await createTestApi({ scale: 0.02 });
  cat = await demoCatalog(api.db);
  post = poster(api);
  key = (
    await api.createKey({
      scopes: ["*"],
      activate: true,
      rate_limits: { read: 100_000, write: 100_000, checkin: 100_000, access: 100_000 },
    })
  ).key;
  const TicketList = r.ListEnvelope(r.Ticket);
  const [active, used] = expectOk(
    await post("/v1/tickets", key, { tickets: [validTicket(), validTicket()] }),
    TicketList,
    201,
  ).data;
  fixture.activeTicket = active.code;
  fixture.usedTicket = used.code;
  fixture.nfc = uniqueCode("FZ-NFC");
  fixture.uhf = uniqueCode("FZ-UHF");
  expectOk(
    await post(`/v1/tickets/${used.code}/check-in`, key, {
      wristband: { nfc: fixture.nfc, uhf: fixture.uhf },
    }),
    r.Ticket,
  );
});

afterAll(async () => {
  await api?.close();
});

function validTicket() {
  return {
    ticket_type_id: cat.type("VIP 4-Day").id,
    attendee: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      document: { type: "passport", number: "X1234567" },
      birth_date: "1990-01-31",
    },
    valid_days: [cat.days[0].id, cat.days[1].id],
    extra_zones: [cat.zone("Camping").id],
  };
}

interface Endpoint {
  name: string;
  path: (code?: string) => string;
  /** A body the endpoint accepts (undefined: the endpoint takes none). */
  body: () => unknown;
}

const ENDPOINTS: Endpoint[] = [
  { name: "POST /tickets", path: () => "/v1/tickets", body: () => ({ tickets: [validTicket()] }) },
  {
    name: "cancel",
    path: (code = fixture.usedTicket) => `/v1/tickets/${code}/cancel`,
    body: () => undefined,
  },
  {
    name: "check-in",
    path: (code = fixture.activeTicket) => `/v1/tickets/${code}/check-in`,
    body: () => ({
      wristband: { nfc: uniqueCode("FZ"), uhf: uniqueCode("FZU") },
      device_id: "gate-1",
      occurred_at: "2026-07-11T20:00:00+02:00",
    }),
  },
  {
    name: "access-checks",
    path: () => "/v1/access-checks",
    body: () => ({ code: fixture.nfc, zone_id: cat.zone("VIP Lounge").id, device_id: "door-1" }),
  },
  {
    name: "POST /topups",
    path: () => "/v1/topups",
    body: () => ({
      code: fixture.uhf,
      amount: 100,
      direction: "topup",
      payment_method: "cash",
      bonus_amount: 0,
      bonus_rule: null,
    }),
  },
  {
    name: "review",
    path: (code = fixture.nfc) => `/v1/wristbands/${code}/review`,
    body: () => ({ decision: "keep" }),
  },
];

// --------------------------------------------------------------------------------------------
// Junk.

const SPECIAL_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0000".repeat(10),
  "\ud800",
  "x\udc00",
  "\udbff\udfff",
  "\ud83d\ude00",
  "\u202e\u0301",
  "\ufeff",
  "\n\r\t",
  "null",
  "true",
  "[]",
  "{}",
  "1e999",
  "-0",
  "NaN",
  "keep",
  "withdraw",
  "promo",
  "transfer",
  "__proto__",
  "constructor",
  "<script>alert(1)</script>",
  "'; drop table tickets; --",
  "%00",
  "\\u0000",
  "ffffffffffffffffffffffff",
  "0123456789abcdef01234567",
  "2026-02-30",
  "2026-07-11T25:00:00Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59-14:00",
  "a@b",
  "a@b.c\u0000",
  "x".repeat(65),
  "x".repeat(300),
  "x".repeat(100_000),
];
const SPECIAL_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  1.5,
  -1.5,
  999_999,
  1_000_000,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  -1e21,
  1e308,
  -1e308,
  5e-324,
];

/** Nested arrays or objects `depth` deep. */
function nested(depth: number, kind: "array" | "object"): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === "array" ? [value] : { a: value };
  return value;
}

const loneSurrogates = fc
  .array(fc.integer({ min: 0xd800, max: 0xdfff }), { minLength: 1, maxLength: 3 })
  .map((units) => String.fromCharCode(...units));

const junkString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 200, maxLength: 3000 }) },
  { weight: 1, arbitrary: loneSurrogates },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{24}$/) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
      .map(([a, b]) => `${a}\u0000${b}`),
  },
);

const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: junkString },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_NUMBERS) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(junkString, { maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 2, max: 3000 }), fc.constantFrom("array" as const, "object" as const))
      .map(([depth, kind]) => nested(depth, kind)),
  },
);

type Path = (string | number)[];

/** Every path inside a JSON value (objects and arrays included), the root excepted. */
function paths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

function containerPaths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [];
  const own = Array.isArray(value) ? [] : [prefix];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  return [...own, ...entries.flatMap(([k, v]) => containerPaths(v, [...prefix, k]))];
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> {
  let node = root as Record<string | number, unknown>;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string | number, unknown>;
  return node;
}

type Mutation =
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "delete"; at: number }
  | { kind: "add"; at: number; name: string; value: unknown }
  | { kind: "body"; value: unknown }
  | { kind: "raw"; text: string }
  | { kind: "code"; code: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: junkValue }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("add" as const),
      at: fc.nat(),
      name: fc.oneof(
        fc.constantFrom("__proto__", "constructor", "extra", "amount", ""),
        fc.string({ maxLength: 10 }),
      ),
      value: junkValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("body" as const), value: junkValue }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("raw" as const),
      text: fc.oneof(
        fc.constantFrom(
          "",
          " ",
          "{",
          "[1,",
          '{"a":}',
          "nul",
          "'x'",
          '{"amount": 1e400}',
          "\u0000",
          "\ufeff{}",
        ),
        fc.string({ maxLength: 30 }),
        fc.string({ unit: "binary", maxLength: 30 }),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("code" as const), code: junkString }),
  },
);

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      "",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-16",
      "application/json; charset=latin1",
      "application/xml",
      "application/vnd.api+json",
      "application/json, text/plain",
      "*/*",
    ),
  },
);

/** encodeURIComponent where it can (a lone surrogate makes it throw), else raw. */
function encodeCode(code: string): string {
  try {
    return encodeURIComponent(code);
  } catch {
    return code;
  }
}

function applyMutation(endpoint: Endpoint, m: Mutation): { path: string; raw?: string; body?: unknown } {
  const body = structuredClone(endpoint.body());
  if (m.kind === "code") return { path: endpoint.path(encodeCode(m.code)), body };
  if (m.kind === "raw") return { path: endpoint.path(), raw: m.text };
  if (m.kind === "body" || body === undefined)
    return { path: endpoint.path(), body: m.kind === "body" ? m.value : undefined };
  if (m.kind === "add") {
    const containers = containerPaths(body);
    const at = containers[m.at % containers.length];
    const target = parentOf(body, [...at, ""]) as object;
    Object.defineProperty(target, m.name, {
      value: m.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return { path: endpoint.path(), body };
  }
  const all = paths(body);
  const at = all[m.at % all.length];
  const parent = parentOf(body, at);
  const last = at[at.length - 1];
  if (m.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    parent[last] = m.value;
  }
  return { path: endpoint.path(), body };
}

// --------------------------------------------------------------------------------------------

async function snapshot() {
  return { counts: await rowCounts(api.db), digest: await stateDigest(api.db) };
}

/** Sends one request and checks the answer: 2xx, or a 4xx envelope that wrote nothing. */
async function expectWellFormed(
  request: { path: string; raw?: string; body?: unknown },
  type: string | undefined,
): Promise<number> {
  const before = await snapshot();
  const logged = api.errors.length;
  let payload: string | undefined = request.raw;
  if (payload === undefined && request.body !== undefined) payload = JSON.stringify(request.body);
  const headers: Record<string, string> = {
    authorization: `Bearer ${key}`,
    "idempotency-key": randomUUID(),
  };
  if (type !== undefined) headers["content-type"] = type;
  const res = await api.app.request(request.path, { method: "POST", headers, body: payload });
  const text = await res.text();
  const context = `POST ${request.path.slice(0, 200)} [${type}] ${String(payload).slice(0, 300)} → ${res.status} ${text.slice(0, 300)}`;
  expect(res.status < 300 || (res.status >= 400 && res.status < 500), context).toBe(true);
  expect(api.errors.slice(logged), context).toEqual([]);
  const requestId = res.headers.get("x-request-id");
  expect(requestId, context).toMatch(/^req_[0-9a-f]+$/);
  if (res.status >= 400) {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    expect(parsed.success, context).toBe(true);
    const error = parsed.data!.error;
    expect(Object.keys(errorCatalog), context).toContain(error.code);
    const entry = errorCatalog[error.code as keyof typeof errorCatalog];
    expect([entry.status, entry.type], context).toEqual([res.status, error.type]);
    expect(error.request_id, context).toBe(requestId);
    expect(await snapshot(), context).toEqual(before);
  }
  return res.status;
}

describe("fuzz of the write bodies", () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: junk in any field is a 4xx that writes nothing, never a 5xx`, async () => {
      api.errors.splice(0);
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(mutation, contentType, async (m, type) => {
          const status = await expectWellFormed(applyMutation(endpoint, m), type);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }),
        { numRuns: 250 },
      );
      // The fuzz reached past validation: some requests were refused for their values, not their shape.
      expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
      expect(api.errors).toEqual([]);
    });
  }

  it("known cases: NUL, lone surrogates, huge and odd numbers, wrong content types, oversized bodies", async () => {
    api.errors.splice(0);
    const topup = (body: Record<string, unknown>) => ({
      path: "/v1/topups",
      body: { code: fixture.nfc, amount: 100, payment_method: "cash", ...body },
    });
    const ticket = (attendee: Record<string, unknown>) => ({
      path: "/v1/tickets",
      body: { tickets: [{ ...validTicket(), attendee: { ...validTicket().attendee, ...attendee } }] },
    });
    const cases: [{ path: string; raw?: string; body?: unknown }, string | undefined, number][] = [
      [topup({ code: "a\u0000b" }), "application/json", 400],
      [topup({ code: "\ud800" }), "application/json", 400],
      [topup({ amount: 1.5 }), "application/json", 400],
      [topup({ amount: -1 }), "application/json", 400],
      [topup({ amount: 1e308 }), "application/json", 400],
      [
        { path: "/v1/topups", raw: `{"code":"${fixture.nfc}","amount":1e400,"payment_method":"cash"}` },
        "application/json",
        400,
      ],
      [topup({ bonus_amount: 0.5 }), "application/json", 400],
      [{ path: "/v1/tickets/a%00b/cancel" }, "application/json", 404],
      [{ path: "/v1/tickets/a%00b/check-in", body: { wristband: { nfc: "N" } } }, "application/json", 404],
      [{ path: "/v1/wristbands/%00/review", body: { decision: "keep" } }, "application/json", 404],
      [
        { path: "/v1/access-checks", body: { code: "\u0000", zone_id: cat.zone("VIP Lounge").id } },
        "application/json",
        400,
      ],
      [
        {
          path: "/v1/access-checks",
          body: { code: "x", zone_id: cat.zone("VIP Lounge").id, device_id: "d\u0000" },
        },
        "application/json",
        400,
      ],
      [ticket({ name: "Ada\u0000" }), "application/json", 400],
      [ticket({ name: "\ud800" }), "application/json", 400],
      [ticket({ document: { type: "id\u0000", number: "12345" } }), "application/json", 400],
      [
        { path: `/v1/tickets/${fixture.activeTicket}/check-in`, body: { wristband: { nfc: "N\u0000" } } },
        "application/json",
        400,
      ],
      [topup({}), undefined, 415],
      [topup({}), "text/plain", 415],
      [{ path: "/v1/topups", raw: "x".repeat(2 * 1024 * 1024 + 1) }, "application/json", 413],
      [{ path: "/v1/tickets", raw: `${"[".repeat(100_000)}${"]".repeat(100_000)}` }, "application/json", 400],
      [
        { path: "/v1/tickets", raw: `${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}` },
        "application/json",
        400,
      ],
    ];
    for (const [request, type, status] of cases) {
      expect(
        await expectWellFormed(request, type),
        `${request.path} ${String(request.raw ?? JSON.stringify(request.body)).slice(0, 100)}`,
      ).toBe(status);
    }
    expect(api.errors).toEqual([]);
  });
});
