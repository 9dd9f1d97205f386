import http, { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser } from "@/lib/server/auth/accounts";
import { allowedMethods, FRAMEWORK_METHODS, markMethod } from "@/lib/server/http/methods";
import { SyncWorker } from "@/lib/server/sync";
import { type Harness, PASSWORDS, type RouteModule, startHarness } from "@/lib/testing/console-harness";
import { routeModules } from "@/lib/testing/route-modules";
import { TEST_SESSION_SECRET } from "@/lib/testing/test-dashboard";

/**
 * A bounded fuzz of every route handler of the console and every method it exports, in-process:
 * the real handlers on a real store (PGlite), mirrored by one sync cycle from the real Integration
 * API (in-process, its own store and rate limiter). Several thousand requests, signed in (each
 * role), signed out or with a forged cookie; junk and near-valid path segments, queries and bodies;
 * JSON and not; with and without an Origin. Whatever arrives, the answer is below 500 and comes
 * (body read to the end) within 30 s (that catches a hang; speed is `npm run bench`'s to measure).
 * Deterministic for a seed (FUZZ_SEED), printed with the figures.
 *
 * In-process rather than a Playwright spec against the sandbox: no browser, no socket, no build,
 * so 3,000+ requests take about a minute on two cores and any failure names the handler and input.
 *
 * Then every method, TRACE and WebDAV's included, on every route and page path through proxy.ts,
 * as the socket stamp hands them over: each is answered (405 where the path does not take it),
 * never a 5xx.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20260715);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3200);
// Long enough for a busy two-core machine with 8 requests in flight: only a hang goes past it.
const HANG_MS = 30_000;
const CONCURRENCY = 8;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

interface Target {
  path: string;
  segments: string[];
  method: (typeof METHODS)[number];
  module: RouteModule;
}

/** Every app/api/**\/route.ts with its dynamic segments and exported methods. */
async function targets(): Promise<Target[]> {
  return (await routeModules()).flatMap(({ path, module }) => {
    const segments = [...path.matchAll(/\[(\w+)\]/g)].map((m) => m[1]!);
    return METHODS.filter((method) => module[method]).map((method) => ({ path, segments, method, module }));
  });
}

let h: Harness;
let cookies: string[];
/** Sign-out ends sessions: each sign-out request gets a fresh session of its own (from a trusted browser). */
let leaver: string;
const LEAVER_PASSWORD = "leaver-test-pass";
let realCodes: string[];
let dayIds: string[];
let all: Target[];

beforeAll(async () => {
  h = await startHarness({ scale: 0.02, env: { LOOKUP_BUDGET: "200" } });
  await new SyncWorker({
    db: h.db,
    client: h.dashboard.upstream,
    intervalMs: 60_000,
    log: { info() {}, warn() {}, error() {} },
  }).runOnce();
  cookies = [
    (await h.signIn("manager", PASSWORDS.manager)).cookie,
    (await h.signIn("supervisor", PASSWORDS.supervisor)).cookie,
    (await h.signIn("staff", PASSWORDS.staff)).cookie,
  ];
  await addUser(h.db, "leaver", LEAVER_PASSWORD, "staff");
  leaver = (await h.signIn("leaver", LEAVER_PASSWORD)).cookie;
  const tickets = await h.api!.get<{ data: { code: string; wristband: { nfc: string } | null }[] }>(
    "/v1/tickets?limit=20",
    h.key,
  );
  realCodes = tickets.body.data.flatMap((t) => [t.code, ...(t.wristband ? [t.wristband.nfc] : [])]);
  dayIds = (await h.db.query<{ id: string }>("select id from m_days")).map((d) => d.id);
  all = await targets();
}, 300_000);
afterAll(async () => {
  await h?.close();
});

/** Strings that are not text (NUL, lone surrogates): every typed field gets them often. */
const notText = fc.constantFrom("a\u0000b", "\u0000", "\ud800", "x\udc00y", "🎉\ud83c", "ok\ud83d");

/** Cursors of the latest lists that decode to what Date.parse takes and a store does not. */
const badCursor = fc.constantFrom(
  "MXx4",
  "99999",
  "Tue 2026",
  Buffer.from("Tue 2026|x").toString("base64url"),
  Buffer.from("2026-02-30T00:00:00.000Z|5a1e").toString("base64url"),
  Buffer.from("0000-01-01T00:00:00.000Z|x").toString("base64url"),
);

const junk = fc.oneof(
  { weight: 1, arbitrary: notText },
  { weight: 1, arbitrary: badCursor },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "%",
      "%E0",
      "%zz",
      "..",
      "../../etc/passwd",
      "\u0000",
      "a\nb",
      "\u202Eevil",
      "999999999999999999999",
      "-1",
      "1e309",
      "NaN",
      "0x10",
      "9".repeat(400),
      "null",
      "[]",
      "{}",
      "2026-02-30",
      "0000-01-01T00:00:00Z",
      "275760-09-13T00:00:00Z",
      "imp_0000000000000000",
      "imp_zz",
      "T-00001",
      "' or 1=1 --",
      "<script>alert(1)</script>",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  // Numbers of every size: ids, amounts and cursors must be bounded by their schemas.
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 2, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);

const QUERY_NAMES = [
  "day_id",
  "cursor",
  "before",
  "code",
  "status",
  "updated_since",
  "starting_after",
  "amounts",
  "pending_rules",
  "direction",
  "x",
];

/** The query parameters each handler reads (the others get random names only). */
const QUERY_OF: Record<string, string[]> = {
  "/api/audit": ["before"],
  "/api/live/sales": ["day_id", "cursor"],
  "/api/live/sales/export": ["day_id"],
  "/api/live/scans": ["day_id"],
  "/api/live/topups": ["day_id", "cursor", "direction"],
  "/api/live/topups/export": ["day_id", "direction"],
  "/api/reconciliation": ["day_id"],
  "/api/reconciliation/export": ["day_id"],
  "/api/tickets": ["status", "updated_since", "starting_after"],
  "/api/desk/quote": ["amounts", "code", "pending_rules"],
  "/api/staff/search": ["code"],
  "/api/wristbands/[code]/sales": ["starting_after"],
};

const typed = fc.oneof({ weight: 3, arbitrary: junk }, { weight: 1, arbitrary: notText });

const near = () =>
  fc.oneof(
    { weight: 3, arbitrary: junk },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        ...realCodes,
        ...dayIds,
        "active",
        "used",
        "topup",
        "withdraw",
        "1000,2000",
        "0",
      ),
    },
  );

/** A body: often near-valid for the console's forms, sometimes anything JSON, sometimes not JSON. */
const body = () =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record(
        {
          code: near(),
          amount: fc.oneof(fc.integer({ min: -5, max: 2_000_000 }), junk),
          payment_method: fc.constantFrom("cash", "card", "online", "promo", ""),
          bonus_amount: fc.oneof(fc.integer({ min: 0, max: 5000 }), junk),
          bonus_rule: fc.oneof(fc.constant(null), junk),
          idempotency_key: fc.oneof(fc.uuid(), junk),
          desk: fc.oneof(fc.constantFrom("Desk 1", "Main bar"), typed),
          nfc: fc.oneof({ weight: 3, arbitrary: near() }, { weight: 1, arbitrary: notText }),
          day_id: near(),
          comment: typed,
          reason: typed,
          uhf: fc.oneof({ weight: 3, arbitrary: near() }, { weight: 1, arbitrary: notText }),
          device_id: near(),
          station: fc.oneof(fc.constantFrom("bar", "food", "gate", null), junk),
          counted: fc.array(
            fc.record({ device_id: near(), payment_method: junk, counted: fc.oneof(fc.integer(), junk) }),
            { maxLength: 3 },
          ),
          role: fc.constantFrom("manager", "supervisor", "staff", "admin"),
          username: fc.oneof(fc.constantFrom("manager", "staff", "nobody"), typed),
          password: junk,
          file_name: typed,
          csv: fc.oneof(
            junk,
            fc.constant("code,ticket_type,name,email,valid_days\nT-F1,General,Ana,ana@example.com,Friday\n"),
          ),
        },
        { requiredKeys: [] },
      ),
    },
    { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
    { weight: 1, arbitrary: junk.map((text) => ({ raw: text })) },
  );

const requestSpec = (target: Target) =>
  fc.record({
    who: fc.nat({ max: 19 }),
    params: fc.tuple(...target.segments.map(() => near())),
    query: fc
      .tuple(
        fc.tuple(
          ...(QUERY_OF[target.path] ?? []).map((name) =>
            fc.option(fc.tuple(fc.constant(name), name === "cursor" ? fc.oneof(near(), badCursor) : near()), {
              freq: 3,
            }),
          ),
        ),
        fc.array(fc.tuple(fc.constantFrom(...QUERY_NAMES), near()), { maxLength: 2 }),
      )
      .map(([own, other]) => [...own.filter((q) => q !== null), ...other]),
    body: body(),
    contentType: fc.constantFrom(
      "application/json",
      "application/json",
      "application/json",
      "text/plain",
      null,
    ),
    origin: fc.constantFrom("same", "same", "same", "foreign", "none", "sec-fetch", "rebind"),
  });

type Spec = typeof requestSpec extends (t: Target) => fc.Arbitrary<infer S> ? S : never;

/** A lone surrogate cannot be %-encoded (a URL cannot carry it): U+FFFD in the path, as browsers do. */
const wellFormed = (s: string) =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

async function send(target: Target, spec: Spec) {
  // Mostly a manager (every permission), then the other roles, signed out, and a forged cookie.
  let cookie =
    spec.who < 14
      ? cookies[0]
      : spec.who < 16
        ? cookies[1]
        : spec.who < 18
          ? cookies[2]
          : spec.who < 19
            ? undefined
            : "eoc_session=Fe26.2**forged**cookie";
  if (target.path.startsWith("/api/auth/logout") && spec.who < 18)
    cookie = (await h.signIn("leaver", LEAVER_PASSWORD, leaver)).cookie;
  const params = Object.fromEntries(target.segments.map((name, i) => [name, spec.params[i] as string]));
  const path = target.segments.reduce(
    (p, name) => p.replace(`[${name}]`, encodeURIComponent(wellFormed(params[name]!))),
    target.path,
  );
  const search = new URLSearchParams(spec.query as [string, string][]).toString();
  const headers: Record<string, string> = {};
  if (spec.origin === "foreign") headers.origin = "http://evil.example";
  if (spec.origin === "none") headers.origin = "";
  if (spec.origin === "sec-fetch") headers["sec-fetch-site"] = "same-origin";
  if (spec.origin === "rebind")
    Object.assign(headers, { host: "evil.example", origin: "http://evil.example" });
  const hasBody = target.method !== "GET";
  const raw = spec.body as { raw?: string };
  const text = raw && typeof raw === "object" && "raw" in raw ? String(raw.raw) : JSON.stringify(spec.body);
  if (hasBody && spec.contentType) headers["content-type"] = spec.contentType;
  const started = performance.now();
  const response = await h.call(target.module, target.method, `${path}${search ? `?${search}` : ""}`, {
    cookie,
    params,
    headers,
    ...(hasBody ? { body: text } : {}),
  });
  // The push stream never ends by itself: its first frame is its answer.
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
  } else await response.text();
  return { status: response.status, ms: performance.now() - started };
}

describe("fuzz of every route handler", () => {
  it(`${REQUESTS} requests over every handler and method: 0 × 5xx, 0 hangs (none past ${HANG_MS / 1000} s)`, async () => {
    const perTarget = Math.ceil(REQUESTS / all.length);
    const jobs: { target: Target; spec: Spec }[] = [];
    all.forEach((target, i) => {
      for (const spec of fc.sample(requestSpec(target), { numRuns: perTarget, seed: SEED + i }))
        jobs.push({ target, spec });
    });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let slowest = 0;
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const { target, spec } = jobs[next++]!;
        const label = `${target.method} ${target.path} ${JSON.stringify(spec).slice(0, 300)}`;
        let timer: NodeJS.Timeout | undefined;
        const hang = new Promise<"hang">((resolve) => {
          timer = setTimeout(() => resolve("hang"), HANG_MS);
        });
        const result = await Promise.race([send(target, spec).catch((err: Error) => ({ error: err })), hang]);
        clearTimeout(timer);
        if (result === "hang") failures.push(`hang: ${label}`);
        else if ("error" in result) failures.push(`threw ${result.error.message}: ${label}`);
        else {
          statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
          slowest = Math.max(slowest, result.ms);
          if (result.status >= 500) failures.push(`${result.status}: ${label}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const tally = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    console.log(
      `fuzz (seed ${SEED}): ${jobs.length} requests over ${all.length} handler methods in ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
        `${fivexx} × 5xx; statuses ${tally.join(" ")}; slowest ${slowest.toFixed(0)} ms`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(new Set(jobs.map((j) => `${j.target.method} ${j.target.path}`)).size).toBe(all.length);
  }, 600_000);
});

describe("fuzz of methods through the first gate (proxy.ts)", () => {
  /** Every method Node's HTTP parser lets through (TRACE, CONNECT and WebDAV's included; no Request can carry some). */
  const METHODS_SENT = http.METHODS;

  it("every method on every route and page path: answered, 405 where the path does not take it, never 5xx", async () => {
    process.env.CASHLESS_API_KEY ??= h.key;
    process.env.SESSION_SECRET = TEST_SESSION_SECRET;
    const { proxy } = await import("@/proxy");
    const pagePaths = [
      "/",
      "/login",
      "/sales",
      "/tickets/T-1",
      "/terminals/%20bar-1",
      "/_next/static/chunks/a.js",
    ];
    const routePaths = [...new Set(all.map((t) => t.path.replace(/\[\w+\]/g, "x")))];
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let requests = 0;
    const specs = fc.sample(
      fc.record({
        path: fc.constantFrom(...pagePaths, ...routePaths, "/api/nowhere"),
        method: fc.constantFrom(...METHODS_SENT),
        signedIn: fc.boolean(),
      }),
      { numRuns: 1500, seed: SEED },
    );
    for (const spec of specs) {
      // What the socket stamp does before the framework reads the request (lib/server/http/methods.ts).
      const message = new IncomingMessage(new Socket());
      message.method = spec.method;
      message.headers = spec.signedIn ? { cookie: cookies[0]! } : {};
      markMethod(message);
      let status: number;
      try {
        const response = await proxy(
          new NextRequest(`http://localhost:3000${spec.path}`, {
            method: message.method,
            headers: message.headers as Record<string, string>,
          }),
        );
        status = response.status;
        const allowed = allowedMethods(spec.path);
        const takes = (allowed ?? FRAMEWORK_METHODS).includes(spec.method);
        if (!takes && status !== 405) failures.push(`${spec.method} ${spec.path}: ${status}, expected 405`);
        if (takes && status === 405) failures.push(`${spec.method} ${spec.path}: 405, but the path takes it`);
      } catch (err) {
        failures.push(`${spec.method} ${spec.path} threw ${(err as Error).message}`);
        status = 0;
      }
      requests++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= 500) failures.push(`${spec.method} ${spec.path}: ${status}`);
    }
    const tally = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    console.log(
      `fuzz of methods (seed ${SEED}): ${requests} requests, ${fivexx} × 5xx; statuses ${tally.join(" ")}`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
    expect(statuses.get(405)).toBeGreaterThan(100);
  });
});
