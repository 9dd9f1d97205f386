import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorBody, errorCatalog } from "../lib/contract/errors";
import { createTestApi, type TestApi } from "./testing/test-api";

/**
 * Fuzz of every read endpoint: random query parameters (known names with junk values, unknown
 * names, repeats, raw and percent-encoded junk) and random path segments. Whatever arrives, the
 * answer is a 200 or a 4xx in the error envelope — never a 5xx — and nothing reaches the 500 logger.
 */

interface Endpoint {
  path: string;
  params: string[];
}

const PAGE = ["limit", "starting_after"];
const ENDPOINTS: Endpoint[] = [
  { path: "/v1/ping", params: [] },
  { path: "/v1/event", params: [] },
  { path: "/v1/days", params: [] },
  { path: "/v1/zones", params: [] },
  { path: "/v1/ticket-types", params: [] },
  { path: "/v1/tickets", params: [...PAGE, "status", "updated_since"] },
  { path: "/v1/tickets/{code}", params: [] },
  { path: "/v1/wristbands", params: [...PAGE, "status", "updated_since"] },
  { path: "/v1/wristbands/{code}", params: [] },
  { path: "/v1/wristbands/{code}/transactions", params: [...PAGE, "day_id", "since"] },
  { path: "/v1/transactions", params: [...PAGE, "day_id", "since"] },
  { path: "/v1/topups", params: [...PAGE, "day_id", "since", "direction"] },
  { path: "/v1/topup-bonuses/quote", params: ["amounts", "code", "pending_rules"] },
  { path: "/v1/checkins", params: [...PAGE, "day_id", "since", "zone_id"] },
  { path: "/v1/reports/sales-summary", params: ["day_id"] },
];
const KNOWN_NAMES = [...new Set(ENDPOINTS.flatMap((e) => e.params))];

const SPECIAL_VALUES = [
  "",
  " ",
  "  ",
  "..",
  "../..",
  "./",
  "/",
  "//",
  "%",
  "%%",
  "%00",
  "\u0000",
  "a\u0000b",
  "%zz",
  "%C0%80",
  "%E2%82",
  "%ED%A0%80",
  "%FF%FE",
  "%2F",
  "%2e%2e%2f",
  "+",
  "&",
  "=",
  "#",
  "?",
  ";",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "[object Object]",
  "__proto__",
  "constructor",
  "-1",
  "0",
  "1",
  "50",
  "200",
  "201",
  "999",
  "1000",
  "1e2",
  "0x10",
  "50.0",
  " 50",
  "50 ",
  "NaN",
  "Infinity",
  "9".repeat(400),
  "2026-07-10",
  "2026-02-30",
  "0000-01-01",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+01:00",
  "0000-12-31T23:59:59-14:00",
  "9999-12-31T23:59:59-14:00",
  "9999-12-31T23:59:59.999999999-23:59",
  "2026-07-10T25:61:61Z",
  "2026-07-10T22:00:00+99:99",
  "2026-07-10T22:00:00.123456789Z",
  "2026-07-10T22:00",
  "active",
  "used",
  "inactive",
  "pending_review",
  "topup",
  "withdraw",
  "0,0",
  "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
  "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21",
  "1234567",
  "ffffffffffffffffffffffff",
  "000000000000000000000000",
  "FFFFFFFFFFFFFFFFFFFFFFFF",
  "gggggggggggggggggggggggg",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "\\",
  "\u202e\u0301\ud83d\ude00",
];

const READ_SCOPES = ["event.read", "tickets.read", "checkins.read", "cashless.read", "reports.read"] as const;

let api: TestApi;
let key: string;
/** Real ids and codes, so junk is mixed with values that reach the store. */
let realValues: string[];

beforeAll(async () => {
  api = await createTestApi({ scale: 0.02 });
  key = (await api.createKey({ scopes: [...READ_SCOPES], rate_limits: { read: 100000 } })).key;
  const catalog = api.services.catalog;
  const [ticket] = await api.db.query<{ code: string; id: string }>("select code, id from tickets limit 1");
  const [wristband] = await api.db.query<{ nfc: string; uhf: string }>(
    "select nfc, uhf from wristbands where uhf is not null limit 1",
  );
  const rules = await api.db.query<{ id: string }>("select id from bonus_rules");
  realValues = [
    ...catalog.rows.days.map((d) => d.id),
    ...catalog.rows.zones.map((z) => z.id),
    ...catalog.rows.ticketTypes.map((t) => t.id),
    ...rules.map((r) => r.id),
    rules.map((r) => r.id).join(","),
    ticket.code,
    ticket.id,
    wristband.nfc,
    wristband.uhf,
    "2000,5000,10000",
    "2026-07-10T18:00:00Z",
  ];
});

afterAll(async () => {
  await api?.close();
});

type Mode = "encoded" | "raw" | "form";

/** encodeURIComponent where it can (a lone surrogate makes it throw), else the raw text. */
function encode(value: string, mode: Mode): string {
  if (mode === "raw") return value;
  try {
    const encoded = encodeURIComponent(value);
    return mode === "form" ? encoded.replace(/%20/g, "+") : encoded;
  } catch {
    return value;
  }
}

const loneSurrogates = fc
  .array(fc.integer({ min: 0xd800, max: 0xdfff }), { minLength: 1, maxLength: 4 })
  .map((units) => String.fromCharCode(...units));
const percentJunk = fc
  .array(
    fc.oneof(
      fc.nat(255).map((b) => `%${b.toString(16).padStart(2, "0")}`),
      fc.constantFrom("%", "%z", "%0"),
    ),
    {
      minLength: 1,
      maxLength: 12,
    },
  )
  .map((parts) => parts.join(""));

let valueArbCache: fc.Arbitrary<string> | undefined;
/** Built once (after the seed, for the real values): building arbitraries is the costly part. */
function valueArb(): fc.Arbitrary<string> {
  valueArbCache ??= fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 300, maxLength: 4000 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 300, maxLength: 2000 }) },
    { weight: 1, arbitrary: loneSurrogates },
    { weight: 2, arbitrary: percentJunk },
    { weight: 5, arbitrary: fc.constantFrom(...SPECIAL_VALUES) },
    { weight: 4, arbitrary: fc.constantFrom(...realValues) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-fA-F]{24}$/) },
    { weight: 1, arbitrary: fc.integer({ min: -1000, max: 100000 }).map(String) },
    {
      weight: 1,
      arbitrary: fc
        .date({
          min: new Date("0001-01-01T00:00:00Z"),
          max: new Date("9999-12-31T00:00:00Z"),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString()),
    },
    {
      weight: 1,
      arbitrary: fc.array(fc.nat(9_999_999), { minLength: 1, maxLength: 25 }).map((a) => a.join(",")),
    },
  );
  return valueArbCache;
}

function nameArb(endpoint: Endpoint): fc.Arbitrary<string> {
  const own = endpoint.params.length ? [{ weight: 6, arbitrary: fc.constantFrom(...endpoint.params) }] : [];
  return fc.oneof(
    ...own,
    { weight: 2, arbitrary: fc.constantFrom(...KNOWN_NAMES) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "__proto__",
        "constructor",
        "toString",
        "hasOwnProperty",
        "limit[]",
        "limit[0]",
        "LIMIT",
        "day_id ",
        " limit",
        "",
        "=",
        "&",
        "%6Cimit",
        "li%00mit",
        "a.b",
        "x".repeat(3000),
      ),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  );
}

const modeArb = fc.constantFrom<Mode>("encoded", "encoded", "raw", "form");

const queryItemArbs = new Map<
  Endpoint,
  fc.Arbitrary<{ name: string; value: string; mode: Mode; bare: boolean }>
>();
const queryItemArb = (endpoint: Endpoint) => {
  let arb = queryItemArbs.get(endpoint);
  if (!arb) {
    arb = fc.record({
      name: nameArb(endpoint),
      value: valueArb(),
      mode: modeArb,
      /** `?limit` with no `=`. */
      bare: fc.oneof(
        { weight: 9, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    });
    queryItemArbs.set(endpoint, arb);
  }
  return arb;
};

function buildQuery(items: { name: string; value: string; mode: Mode; bare: boolean }[]): string {
  if (items.length === 0) return "";
  const parts = items.map((i) =>
    i.bare ? encode(i.name, i.mode) : `${encode(i.name, i.mode)}=${encode(i.value, i.mode)}`,
  );
  return `?${parts.join("&")}`;
}

/** One URL: an endpoint with a random code, query and maybe extra segments. */
const caseArb = () =>
  fc
    .oneof(
      ...ENDPOINTS.map((endpoint) =>
        fc.record({
          endpoint: fc.constant(endpoint),
          code: fc.record({ value: valueArb(), mode: modeArb }),
          query: fc.array(queryItemArb(endpoint), { maxLength: 5 }),
          /** Repeat the first parameter with another value (`limit=1&limit=2`). */
          repeat: fc.oneof(
            { weight: 3, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: valueArb() },
          ),
          /** Extra path segments after the endpoint's own. */
          extra: fc.oneof(
            { weight: 4, arbitrary: fc.constant(undefined) },
            {
              weight: 1,
              arbitrary: fc.array(fc.record({ value: valueArb(), mode: modeArb }), {
                minLength: 1,
                maxLength: 3,
              }),
            },
          ),
        }),
      ),
    )
    .map(({ endpoint, code, query, repeat, extra }) => {
      let path = endpoint.path.replace("{code}", encode(code.value, code.mode));
      if (extra) path += `/${extra.map((s) => encode(s.value, s.mode)).join("/")}`;
      const items = [...query];
      if (repeat !== undefined && items.length > 0) items.push({ ...items[0], value: repeat });
      return path + buildQuery(items);
    });

/** Every answer: 200 or 4xx; a 4xx is the error envelope of a catalogued code with the request's id. */
async function expectWellFormedAnswer(pathAndQuery: string) {
  let request: Request;
  try {
    request = new Request(`http://localhost${pathAndQuery}`, { headers: { authorization: `Bearer ${key}` } });
  } catch {
    return; // not a URL at all: no client could send it
  }
  const logged = api.errors.length;
  const res = await api.app.request(request);
  const text = await res.text();
  const context = `${pathAndQuery.slice(0, 300)} → ${res.status} ${text.slice(0, 300)}`;
  if (new URL(request.url).pathname === "/") {
    // `..` segments normalised the path to the root, which redirects to the reference.
    expect(res.status, context).toBe(302);
    return;
  }
  expect(res.status === 200 || (res.status >= 400 && res.status < 500), context).toBe(true);
  expect(res.headers.get("x-request-id"), context).toMatch(/^req_[0-9a-f]+$/);
  const body = JSON.parse(text);
  if (res.status >= 400) {
    const parsed = ErrorBody.safeParse(body);
    expect(parsed.success, context).toBe(true);
    const error = parsed.data!.error;
    expect(Object.keys(errorCatalog), context).toContain(error.code);
    const entry = errorCatalog[error.code as keyof typeof errorCatalog];
    expect(entry.status, context).toBe(res.status);
    expect(entry.type, context).toBe(error.type);
    expect(error.request_id, context).toBe(res.headers.get("x-request-id"));
  } else {
    expect(typeof body.object, context).toBe("string");
  }
  // Nothing reached the 500 logger (compared per request, so a counterexample names its own URL).
  expect(api.errors.slice(logged), context).toEqual([]);
}

describe("fuzz of the read endpoints", () => {
  it("random query parameters and path segments never produce a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb(), async (url) => {
        await expectWellFormedAnswer(url);
      }),
      { numRuns: 3000 },
    );
    expect(api.errors).toEqual([]);
  });

  it("random paths under /v1 never produce a 5xx", async () => {
    const segment = fc.record({ value: valueArb(), mode: modeArb });
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.array(queryItemArb({ path: "", params: KNOWN_NAMES }), { maxLength: 2 }),
        async (segments, query) => {
          await expectWellFormedAnswer(
            `/v1/${segments.map((s) => encode(s.value, s.mode)).join("/")}${buildQuery(query)}`,
          );
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("known regressions: NUL in codes, instants beyond PostgreSQL's range, repeated parameters", async () => {
    const cases: [string, number, string?][] = [
      ["/v1/tickets/a%00b", 404, "ticket_not_found"],
      ["/v1/tickets/%00", 404, "ticket_not_found"],
      ["/v1/wristbands/%00", 404, "wristband_not_found"],
      ["/v1/wristbands/x%00/transactions", 404, "wristband_not_found"],
      ["/v1/topup-bonuses/quote?amounts=100&code=%00", 400, "invalid_parameter"],
      ["/v1/tickets?limit=1&limit=2", 400, "invalid_parameter"],
      ["/v1/tickets?limit=1&limit=1", 400, "invalid_parameter"],
      [`/v1/tickets/${"x".repeat(257)}`, 400, "invalid_parameter"],
      ["/v1/tickets?nope=1", 400, "unknown_parameter"],
      ["/v1/tickets?updated_since=0000-01-01", 200],
      ["/v1/wristbands?updated_since=0000-01-01T00:00:00Z", 200],
      [`/v1/transactions?since=${encodeURIComponent("0001-01-01T00:00:00+01:00")}`, 200],
      [`/v1/topups?since=${encodeURIComponent("0000-12-31T23:59:59-14:00")}`, 200],
      [`/v1/checkins?since=${encodeURIComponent("9999-12-31T23:59:59-14:00")}`, 200],
    ];
    for (const [url, status, code] of cases) {
      await expectWellFormedAnswer(url);
      const res = await api.get<{ error?: { code: string }; data?: unknown[] }>(url, key);
      expect(res.status, url).toBe(status);
      if (code) expect(res.body.error?.code, url).toBe(code);
    }
    // A lower bound before every record keeps them all; one after every record keeps none.
    const all = await api.get<{ data: { id: string }[] }>("/v1/tickets?limit=200", key);
    const early = await api.get<{ data: { id: string }[] }>(
      "/v1/tickets?limit=200&updated_since=0000-01-01",
      key,
    );
    expect(early.body.data).toEqual(all.body.data);
    const late = await api.get<{ data: unknown[] }>(
      `/v1/checkins?since=${encodeURIComponent("9999-12-31T23:59:59-14:00")}`,
      key,
    );
    expect(late.body.data).toEqual([]);
  });
});
