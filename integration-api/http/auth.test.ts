import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CreatedKey } from "../../lib/contract/admin";
import * as r from "../../lib/contract/resources";
import { expectCommonHeaders, expectError, expectOk } from "../testing/expect-api";
import { createTestApi, TEST_ADMIN_TOKEN, type TestApi } from "../testing/test-api";

/**
 * Authentication, authorisation and rate limits of /v1, in the order the decisions fix:
 * format → existence → revocation → expiry → IP allow-list → activation → scope → rate limit.
 */

let api: TestApi;
let ticketCode: string;
let nfc: string;

beforeAll(async () => {
  // One trusted proxy, so the allow-list tests can set the caller's address with X-Forwarded-For.
  api = await createTestApi({ trustProxyHops: 1 });
  [{ code: ticketCode }] = await api.db.query<{ code: string }>(
    "select code from tickets order by id limit 1",
  );
  [{ nfc }] = await api.db.query<{ nfc: string }>("select nfc from wristbands order by id limit 1");
});

afterAll(async () => {
  await api?.close();
});

const admin = (path: string) =>
  api.request(`/admin/keys${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });

const from = (ip: string) => ({ "x-forwarded-for": ip });

/** Every read endpoint with the scope it needs (decisions, "Scope of each endpoint"). */
const endpoints = (): [string, r.Scope][] => [
  ["/v1/event", "event.read"],
  ["/v1/days", "event.read"],
  ["/v1/zones", "event.read"],
  ["/v1/ticket-types", "event.read"],
  ["/v1/tickets", "tickets.read"],
  [`/v1/tickets/${encodeURIComponent(ticketCode)}`, "tickets.read"],
  ["/v1/wristbands", "cashless.read"],
  [`/v1/wristbands/${nfc}`, "cashless.read"],
  [`/v1/wristbands/${nfc}/transactions`, "cashless.read"],
  ["/v1/transactions", "cashless.read"],
  ["/v1/topups", "cashless.read"],
  ["/v1/topup-bonuses/quote?amounts=2000", "cashless.read"],
  ["/v1/checkins", "checkins.read"],
  ["/v1/reports/sales-summary", "reports.read"],
];
const READ_SCOPES: r.Scope[] = [
  "event.read",
  "tickets.read",
  "checkins.read",
  "cashless.read",
  "reports.read",
];

describe("the Authorization header", () => {
  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["another scheme", "Basic ZWFrOnNlY3JldA=="],
    ["Bearer without a key", "Bearer "],
    ["a key of another format", "Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc"],
    ["a secret too short", `Bearer eak_test_${randomBytes(31).toString("base64url")}`],
    ["a secret too long", `Bearer eak_test_${randomBytes(33).toString("base64url")}`],
    ["an unknown environment", `Bearer eak_prod_${randomBytes(32).toString("base64url")}`],
    ["the key without Bearer", `eak_test_${randomBytes(32).toString("base64url")}`],
  ])("%s is 401 missing_api_key", async (_label, authorization) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const res = await api.request("/v1/ping", { headers });
    expectError(res, 401, "authentication_error", "missing_api_key");
  });

  it("an unknown key of the right format is 401 invalid_api_key", async () => {
    const res = await api.get("/v1/ping", `eak_test_${randomBytes(32).toString("base64url")}`);
    expectError(res, 401, "authentication_error", "invalid_api_key");
  });

  it("the secret of a real key under the other environment (eak_live_ on a test deployment) is invalid_api_key", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"] });
    expect(created.key).toMatch(/^eak_test_/);
    expectOk(await api.get("/v1/ping", created.key), r.Ping);
    const live = created.key.replace(/^eak_test_/, "eak_live_");
    expectError(await api.get("/v1/ping", live), 401, "authentication_error", "invalid_api_key");
  });

  it("a live key stored in the same database is still invalid_api_key on a test deployment", async () => {
    const live = `eak_live_${randomBytes(32).toString("base64url")}`;
    await api.db.query(
      `insert into api_keys (id, name, key_hash, key_hint, environment, scopes, rate_limits, activated_at, created_at)
       values ('0000000000000000000000aa', 'live key', $1, $2, 'live', '{tickets.read}', $3, now(), now())`,
      [
        createHash("sha256").update(live).digest("hex"),
        live.slice(0, 14),
        JSON.stringify({ read: 120, write: 20, checkin: 60, access: 120 }),
      ],
    );
    expectError(await api.get("/v1/ping", live), 401, "authentication_error", "invalid_api_key");
  });

  it("a one-character change of a real key is invalid_api_key", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"] });
    const last = created.key.at(-1) === "A" ? "B" : "A";
    expectError(
      await api.get("/v1/ping", `${created.key.slice(0, -1)}${last}`),
      401,
      "authentication_error",
      "invalid_api_key",
    );
  });

  it("accepts the scheme in any case (RFC 7235)", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"] });
    const res = await api.request("/v1/ping", { headers: { authorization: `bearer ${created.key}` } });
    expectOk(res, r.Ping);
  });

  it("authentication comes before parameter validation and route-specific errors", async () => {
    expectError(
      await api.request("/v1/tickets?limit=0&nope=1"),
      401,
      "authentication_error",
      "missing_api_key",
    );
    expectError(
      await api.request("/v1/tickets/NO-SUCH-TICKET"),
      401,
      "authentication_error",
      "missing_api_key",
    );
    const created = await api.createKey({ scopes: ["tickets.read"] });
    expectError(
      await api.get("/v1/transactions?limit=0", created.key),
      403,
      "permission_error",
      "insufficient_scope",
    );
  });
});

describe("revocation and expiry", () => {
  it("a revoked key fails on the very next request", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"] });
    expectOk(await api.get("/v1/tickets?limit=1", created.key), r.ListEnvelope(r.Ticket));
    expect((await admin(`/${created.id}/revoke`)).status).toBe(200);
    expectError(
      await api.get("/v1/tickets?limit=1", created.key),
      401,
      "authentication_error",
      "revoked_api_key",
    );
    expectError(await api.get("/v1/ping", created.key), 401, "authentication_error", "revoked_api_key");
  });

  it("an expired key is 401 expired_api_key; before its expiry it works", async () => {
    const created = await api.createKey({
      scopes: ["tickets.read"],
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
    });
    expectOk(await api.get("/v1/ping", created.key), r.Ping);
    // Two hours pass (the service may hold the key in memory: the expiry must still count).
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 2 * 3600_000);
      expectError(await api.get("/v1/ping", created.key), 401, "authentication_error", "expired_api_key");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("IP allow-list (behind one trusted proxy)", () => {
  it("admits listed addresses and CIDR blocks, refuses others with 403 ip_not_allowed", async () => {
    const created = await api.createKey({
      scopes: ["tickets.read"],
      allowed_ips: ["203.0.113.0/24", "198.51.100.7", "2001:db8::/32"],
    });
    for (const ip of ["203.0.113.9", "198.51.100.7", "2001:db8::1"]) {
      expectOk(await api.get("/v1/ping", created.key, from(ip)), r.Ping);
    }
    for (const ip of ["198.51.100.8", "192.0.2.1", "2001:db9::1"]) {
      expectError(
        await api.get("/v1/ping", created.key, from(ip)),
        403,
        "permission_error",
        "ip_not_allowed",
      );
    }
    // No forwarded address and no socket: nothing to admit.
    expectError(await api.get("/v1/ping", created.key), 403, "permission_error", "ip_not_allowed");
  });

  it("trusts only the entry the proxy appended, not what the client wrote before it", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"], allowed_ips: ["203.0.113.0/24"] });
    expectError(
      await api.get("/v1/ping", created.key, from("203.0.113.9, 192.0.2.1")),
      403,
      "permission_error",
      "ip_not_allowed",
    );
    expectOk(await api.get("/v1/ping", created.key, from("192.0.2.1, 203.0.113.9")), r.Ping);
  });

  it("a key without allow-list answers from anywhere", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"] });
    expectOk(await api.get("/v1/ping", created.key, from("192.0.2.1")), r.Ping);
    expectOk(await api.get("/v1/ping", created.key), r.Ping);
  });
});

describe("activation of keys with write scopes", () => {
  it("is 403 key_pending_activation on every endpoint, /ping included, until activated", async () => {
    const created = await api.createKey({ scopes: ["tickets.read", "tickets.write"] });
    expect(created.status).toBe("pending_activation");
    for (const [path] of [["/v1/ping"], ...endpoints()]) {
      expectError(await api.get(path, created.key), 403, "permission_error", "key_pending_activation");
    }
    const activated = await admin(`/${created.id}/activate`);
    expect(activated.status).toBe(200);
    expect((activated.body as { status: string }).status).toBe("active");
    expectOk(await api.get("/v1/ping", created.key), r.Ping);
    expectOk(await api.get("/v1/tickets?limit=2", created.key), r.ListEnvelope(r.Ticket));
    // Activation grants nothing beyond the key's scopes.
    expectError(await api.get("/v1/event", created.key), 403, "permission_error", "insufficient_scope");
  });

  it("a key created with activate: true works at once", async () => {
    const created = await api.createKey({ scopes: ["cashless.read", "cashless.write"], activate: true });
    expect(created.status).toBe("active");
    expectOk(await api.get("/v1/topups?limit=1", created.key), r.ListEnvelope(r.Topup));
  });
});

describe("scopes", () => {
  it("each endpoint answers a key holding only its scope and refuses one holding every other read scope", async () => {
    for (const [path, scope] of endpoints()) {
      const only = await api.createKey({ scopes: [scope] });
      const res = await api.get(path, only.key);
      expect(res.status, `${path} with ${scope}: ${res.text}`).toBe(200);
      expectCommonHeaders(res);
      const others = await api.createKey({ scopes: READ_SCOPES.filter((s) => s !== scope) });
      expectError(await api.get(path, others.key), 403, "permission_error", "insufficient_scope");
    }
  });

  it("a write scope does not grant the matching read", async () => {
    const created = await api.createKey({
      scopes: ["tickets.write", "cashless.write", "checkins.write"],
      activate: true,
    });
    expectOk(await api.get("/v1/ping", created.key), r.Ping);
    for (const path of [
      "/v1/tickets",
      "/v1/transactions",
      "/v1/checkins",
      "/v1/event",
      "/v1/reports/sales-summary",
    ]) {
      expectError(await api.get(path, created.key), 403, "permission_error", "insufficient_scope");
    }
  });

  it("* grants every endpoint", async () => {
    const created = await api.createKey({ scopes: ["*"], activate: true });
    for (const [path] of [["/v1/ping"], ...endpoints()]) {
      const res = await api.get(path, created.key);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
  });

  it("/ping answers any usable key, whatever its scopes", async () => {
    for (const scope of READ_SCOPES) {
      const created = await api.createKey({ scopes: [scope] });
      expect(expectOk(await api.get("/v1/ping", created.key), r.Ping).key.scopes).toEqual([scope]);
    }
  });
});

describe("check order", () => {
  it("revoked > expired > IP > activation > scope, one layer peeled at a time", async () => {
    const created: CreatedKey = await api.createKey({
      scopes: ["tickets.write"],
      allowed_ips: ["203.0.113.5"],
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
    });
    const call = (ip: string) => api.get("/v1/transactions", created.key, from(ip));
    expectError(await call("192.0.2.1"), 403, "permission_error", "ip_not_allowed");
    expectError(await call("203.0.113.5"), 403, "permission_error", "key_pending_activation");
    expect((await admin(`/${created.id}/activate`)).status).toBe(200);
    expectError(await call("203.0.113.5"), 403, "permission_error", "insufficient_scope");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 2 * 3600_000);
      expectError(await call("192.0.2.1"), 401, "authentication_error", "expired_api_key");
      expect((await admin(`/${created.id}/revoke`)).status).toBe(200);
      expectError(await call("192.0.2.1"), 401, "authentication_error", "revoked_api_key");
    } finally {
      vi.useRealTimers();
    }
  });

  it("scope is checked before the rate limit, and an exhausted key still learns it was revoked", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"], rate_limits: { read: 1 } });
    expectOk(await api.get("/v1/tickets?limit=1", created.key), r.ListEnvelope(r.Ticket));
    expectError(
      await api.get("/v1/tickets?limit=1", created.key),
      429,
      "rate_limit_error",
      "rate_limit_exceeded",
    );
    expectError(
      await api.get("/v1/transactions", created.key),
      403,
      "permission_error",
      "insufficient_scope",
    );
    expect((await admin(`/${created.id}/revoke`)).status).toBe(200);
    expectError(await api.get("/v1/tickets", created.key), 401, "authentication_error", "revoked_api_key");
  });
});

describe("rate limits", () => {
  const intHeader = (res: { headers: Headers }, name: string) => {
    const value = res.headers.get(name);
    expect(value, name).toMatch(/^\d+$/);
    return Number(value);
  };

  it("counts down per key, then answers 429 with retry-after; other keys are unaffected", async () => {
    const limited = await api.createKey({ scopes: ["tickets.read", "event.read"], rate_limits: { read: 3 } });
    const other = await api.createKey({ scopes: ["tickets.read"] });
    const paths = ["/v1/ping", "/v1/tickets?limit=1", "/v1/days"];
    for (const [i, path] of paths.entries()) {
      const res = await api.get(path, limited.key);
      expect(res.status, res.text).toBe(200);
      expect(intHeader(res, "x-ratelimit-limit")).toBe(3);
      expect(intHeader(res, "x-ratelimit-remaining")).toBe(2 - i);
      const reset = intHeader(res, "x-ratelimit-reset");
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    for (const path of ["/v1/tickets", "/v1/ping"]) {
      const res = await api.get(path, limited.key);
      expectError(res, 429, "rate_limit_error", "rate_limit_exceeded");
      const retryAfter = intHeader(res, "retry-after");
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(intHeader(res, "x-ratelimit-limit")).toBe(3);
      expect(intHeader(res, "x-ratelimit-remaining")).toBe(0);
    }
    // Another key (same caller, same process) keeps its own full quota.
    const fresh = await api.get("/v1/tickets?limit=1", other.key);
    expect(fresh.status).toBe(200);
    expect(intHeader(fresh, "x-ratelimit-limit")).toBe(120);
    expect(intHeader(fresh, "x-ratelimit-remaining")).toBe(119);
  });

  it("an authenticated key refused for its scope gets the headers, and the refusal is not counted", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"], rate_limits: { read: 5 } });
    expect(intHeader(await api.get("/v1/ping", created.key), "x-ratelimit-remaining")).toBe(4);
    const refused = await api.get("/v1/transactions", created.key);
    expectError(refused, 403, "permission_error", "insufficient_scope");
    expect(intHeader(refused, "x-ratelimit-limit")).toBe(5);
    expect(intHeader(refused, "x-ratelimit-remaining")).toBe(4);
    expect(intHeader(refused, "x-ratelimit-reset")).toBeGreaterThanOrEqual(1);
    expect(intHeader(await api.get("/v1/ping", created.key), "x-ratelimit-remaining")).toBe(3);
  });

  it("counts per key, never per IP", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"], rate_limits: { read: 2 } });
    expect((await api.get("/v1/ping", created.key, from("192.0.2.1"))).status).toBe(200);
    expect((await api.get("/v1/ping", created.key, from("192.0.2.2"))).status).toBe(200);
    expectError(
      await api.get("/v1/ping", created.key, from("192.0.2.3")),
      429,
      "rate_limit_error",
      "rate_limit_exceeded",
    );
  });

  it("uses the default read quota of 120 per minute", async () => {
    const created = await api.createKey({ scopes: ["tickets.read"] });
    const res = await api.get("/v1/ping", created.key);
    expect(intHeader(res, "x-ratelimit-limit")).toBe(120);
    expect(intHeader(res, "x-ratelimit-remaining")).toBe(119);
  });
});
