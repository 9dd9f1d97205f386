import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyList, ApiKeyView, CreatedKey } from "../../lib/contract/admin";
import * as r from "../../lib/contract/resources";
import { expectCommonHeaders, expectError, expectOk } from "../testing/expect-api";
import { createTestApi, TEST_ADMIN_TOKEN, type TestApi } from "../testing/test-api";

/** The organiser's key administration (/admin, outside /v1, behind the admin token). */

let api: TestApi;

beforeAll(async () => {
  api = await createTestApi({ scale: 0.02 });
});

afterAll(async () => {
  await api?.close();
});

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const JSON_HEADERS = { ...ADMIN, "content-type": "application/json" };

const post = (path: string, body?: unknown, headers: Record<string, string> = JSON_HEADERS) =>
  api.request(`/admin${path}`, {
    method: "POST",
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
const listKeys = () => api.request("/admin/keys", { headers: ADMIN });
const KEY_FORMAT = /^eak_test_[A-Za-z0-9_-]{43}$/;

describe("the admin token", () => {
  const routes: [string, string][] = [
    ["GET", "/admin/keys"],
    ["POST", "/admin/keys"],
    ["POST", "/admin/keys/0123456789abcdef01234567/activate"],
    ["POST", "/admin/keys/0123456789abcdef01234567/revoke"],
  ];

  it("is required: 401 missing_admin_token without a Bearer token", async () => {
    for (const [method, path] of routes) {
      const variants: Record<string, string>[] = [
        {},
        { authorization: TEST_ADMIN_TOKEN },
        { authorization: "Basic abc" },
      ];
      for (const headers of variants) {
        expectError(
          await api.request(path, {
            method,
            headers: { ...headers, "content-type": "application/json" },
            body: method === "POST" ? "{}" : undefined,
          }),
          401,
          "authentication_error",
          "missing_admin_token",
        );
      }
    }
  });

  it("must match: 401 invalid_admin_token otherwise, an API key included", async () => {
    const created = await api.createKey({ scopes: ["*"], activate: true });
    for (const [method, path] of routes) {
      for (const token of [`${TEST_ADMIN_TOKEN}x`, TEST_ADMIN_TOKEN.slice(0, -1), created.key]) {
        expectError(
          await api.request(path, {
            method,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: method === "POST" ? JSON.stringify({ name: "x", scopes: ["tickets.read"] }) : undefined,
          }),
          401,
          "authentication_error",
          "invalid_admin_token",
        );
      }
    }
    // Nothing was created by the refused calls.
    const names = ApiKeyList.parse((await listKeys()).body).data.map((k) => k.name);
    expect(names.filter((n) => n === "x")).toEqual([]);
  });
});

describe("POST /admin/keys", () => {
  it("201: returns the key once, in the decided format, with its settings", async () => {
    const res = await post("/keys", {
      name: "  Ticket shop  ",
      scopes: ["tickets.read", "event.read", "tickets.read"],
      restrictions: { day_ids: [api.services.catalog.rows.days[1].id] },
      rate_limits: { read: 300 },
      allowed_ips: ["10.0.0.0/8", "2001:db8::1"],
      expires_at: "2099-01-01T00:00:00+02:00",
    });
    const created = expectOk(res, CreatedKey, 201);
    expect(created.key).toMatch(KEY_FORMAT);
    expect(created).toMatchObject({
      object: "api_key",
      name: "Ticket shop",
      environment: "test",
      scopes: ["tickets.read", "event.read"],
      restrictions: { ticket_type_ids: [], day_ids: [api.services.catalog.rows.days[1].id] },
      rate_limits: { read: 300, write: 20, checkin: 60, access: 120 },
      allowed_ips: ["10.0.0.0/8", "2001:db8::1"],
      expires_at: "2098-12-31T22:00:00.000Z",
      status: "active",
      revoked_at: null,
    });
    expect(created.key.startsWith(created.key_hint)).toBe(true);
    expect(created.key_hint.length).toBeLessThan(20);
    expect(created.activated_at).not.toBeNull();
    // Each key is new.
    const again = expectOk(
      await post("/keys", { name: "Ticket shop", scopes: ["tickets.read"] }),
      CreatedKey,
      201,
    );
    expect(again.key).not.toBe(created.key);
    expect(again.id).not.toBe(created.id);
  });

  it("stores only the SHA-256 of the key: no column holds the key or its secret", async () => {
    const created = expectOk(
      await post("/keys", { name: "hash check", scopes: ["cashless.read"] }),
      CreatedKey,
      201,
    );
    const secret = created.key.slice("eak_test_".length);
    const [row] = await api.db.query<Record<string, unknown>>("select * from api_keys where id = $1", [
      created.id,
    ]);
    expect(row.key_hash).toBe(createHash("sha256").update(created.key).digest("hex"));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(0, 20));
    // Nor any other table.
    const tables = await api.db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema()",
    );
    for (const { table_name } of tables) {
      const [{ found }] = await api.db.query<{ found: number }>(
        `select count(*)::int as found from ${table_name} t where t::text like '%' || $1 || '%'`,
        [secret],
      );
      expect(found, table_name).toBe(0);
    }
  });

  it("keys with only read scopes are active at once; a write scope waits for activation unless activate: true", async () => {
    const read = expectOk(
      await post("/keys", { name: "r", scopes: [...r.scopes].filter((s) => s.endsWith(".read")) }),
      CreatedKey,
      201,
    );
    expect(read.status).toBe("active");
    expect(read.activated_at).not.toBeNull();
    for (const scope of ["tickets.write", "checkins.write", "cashless.write", "*"] as const) {
      const pending = expectOk(
        await post("/keys", { name: "w", scopes: ["tickets.read", scope] }),
        CreatedKey,
        201,
      );
      expect(pending.status, scope).toBe("pending_activation");
      expect(pending.activated_at).toBeNull();
    }
    const now = expectOk(
      await post("/keys", { name: "w", scopes: ["cashless.write"], activate: true }),
      CreatedKey,
      201,
    );
    expect(now.status).toBe("active");
    expect(now.activated_at).not.toBeNull();
    const explicit = expectOk(
      await post("/keys", { name: "w", scopes: ["cashless.write"], activate: false }),
      CreatedKey,
      201,
    );
    expect(explicit.status).toBe("pending_activation");
  });

  it.each<[string, unknown, string]>([
    ["an empty name", { name: "", scopes: ["tickets.read"] }, "name"],
    ["a blank name", { name: "   ", scopes: ["tickets.read"] }, "name"],
    ["a name too long", { name: "x".repeat(101), scopes: ["tickets.read"] }, "name"],
    ["a name that is not a string", { name: 5, scopes: ["tickets.read"] }, "name"],
    ["no scopes", { name: "x", scopes: [] }, "scopes"],
    ["an unknown scope", { name: "x", scopes: ["tickets.read", "tickets.delete"] }, "scopes[1]"],
    ["scopes not an array", { name: "x", scopes: "tickets.read" }, "scopes"],
    [
      "a bad restriction id",
      { name: "x", scopes: ["tickets.read"], restrictions: { day_ids: ["day-1"] } },
      "restrictions.day_ids[0]",
    ],
    [
      "a zero rate limit",
      { name: "x", scopes: ["tickets.read"], rate_limits: { read: 0 } },
      "rate_limits.read",
    ],
    [
      "a fractional rate limit",
      { name: "x", scopes: ["tickets.read"], rate_limits: { write: 1.5 } },
      "rate_limits.write",
    ],
    [
      "a bad IP",
      { name: "x", scopes: ["tickets.read"], allowed_ips: ["10.0.0.1", "not-an-ip"] },
      "allowed_ips[1]",
    ],
    ["a bad expiry", { name: "x", scopes: ["tickets.read"], expires_at: "tomorrow" }, "expires_at"],
    [
      "an expiry without offset",
      { name: "x", scopes: ["tickets.read"], expires_at: "2099-01-01T00:00:00" },
      "expires_at",
    ],
    ["activate not a boolean", { name: "x", scopes: ["tickets.read"], activate: "yes" }, "activate"],
  ])("%s is 400 invalid_parameter with its param", async (_label, body, param) => {
    expectError(await post("/keys", body), 400, "invalid_request_error", "invalid_parameter", param);
  });

  it("a missing field is 400 parameter_missing", async () => {
    expectError(
      await post("/keys", { scopes: ["tickets.read"] }),
      400,
      "invalid_request_error",
      "parameter_missing",
      "name",
    );
    expectError(
      await post("/keys", { name: "x" }),
      400,
      "invalid_request_error",
      "parameter_missing",
      "scopes",
    );
  });

  it("an unknown field, top-level or nested, is 400 unknown_parameter naming it", async () => {
    expectError(
      await post("/keys", { name: "x", scopes: ["tickets.read"], environment: "live" }),
      400,
      "invalid_request_error",
      "unknown_parameter",
      "environment",
    );
    expectError(
      await post("/keys", { name: "x", scopes: ["tickets.read"], restrictions: { zone_ids: [] } }),
      400,
      "invalid_request_error",
      "unknown_parameter",
      "restrictions.zone_ids",
    );
    expectError(
      await post("/keys", { name: "x", scopes: ["tickets.read"], rate_limits: { reads: 5 } }),
      400,
      "invalid_request_error",
      "unknown_parameter",
      "rate_limits.reads",
    );
  });

  it("a body that is not JSON is 400 invalid_json; one that is not an object is 400 invalid_parameter", async () => {
    for (const body of ["{name: x}", '{"name": "x",', "", "undefined"]) {
      expectError(await post("/keys", body), 400, "invalid_request_error", "invalid_json");
    }
    for (const body of ["[]", '"x"', "null", "42"]) {
      expectError(await post("/keys", body), 400, "invalid_request_error", "invalid_parameter");
    }
  });

  it("a body that is not application/json is 415 unsupported_media_type", async () => {
    const body = JSON.stringify({ name: "x", scopes: ["tickets.read"] });
    for (const headers of [{ ...ADMIN, "content-type": "text/plain" }, ADMIN]) {
      expectError(await post("/keys", body, headers), 415, "invalid_request_error", "unsupported_media_type");
    }
  });

  it("a key that could never work is refused: past expiry, unknown restriction ids", async () => {
    const before = ApiKeyList.parse((await listKeys()).body).data.length;
    const past = await post("/keys", {
      name: "x",
      scopes: ["tickets.read"],
      expires_at: "2020-01-01T00:00:00Z",
    });
    expectError(past, 400, "invalid_request_error", "invalid_parameter", "expires_at");
    const dayId = api.services.catalog.rows.days[0].id;
    const unknownType = await post("/keys", {
      name: "x",
      scopes: ["tickets.read"],
      restrictions: { ticket_type_ids: ["ffffffffffffffffffffffff"], day_ids: [dayId] },
    });
    expectError(
      unknownType,
      400,
      "invalid_request_error",
      "invalid_parameter",
      "restrictions.ticket_type_ids[0]",
    );
    const unknownDay = await post("/keys", {
      name: "x",
      scopes: ["tickets.read"],
      restrictions: { day_ids: [dayId, "ffffffffffffffffffffffff"] },
    });
    expectError(unknownDay, 400, "invalid_request_error", "invalid_parameter", "restrictions.day_ids[1]");
    expect(ApiKeyList.parse((await listKeys()).body).data.length).toBe(before);
  });

  it("nothing is created by a refused body", async () => {
    const before = ApiKeyList.parse((await listKeys()).body).data.length;
    await post("/keys", { name: "refused", scopes: ["nope"] });
    await post("/keys", "{");
    const after = ApiKeyList.parse((await listKeys()).body).data;
    expect(after.length).toBe(before);
    expect(after.map((k) => k.name)).not.toContain("refused");
  });
});

describe("GET /admin/keys", () => {
  it("lists every key with its status, never the key nor its hash", async () => {
    const a = expectOk(await post("/keys", { name: "listed a", scopes: ["tickets.read"] }), CreatedKey, 201);
    const b = expectOk(await post("/keys", { name: "listed b", scopes: ["tickets.write"] }), CreatedKey, 201);
    const res = await listKeys();
    const list = expectOk(res, ApiKeyList);
    expect(list.object).toBe("list");
    const byId = new Map(list.data.map((k) => [k.id, k]));
    expect(byId.get(a.id)).toMatchObject({ name: "listed a", status: "active" });
    expect(byId.get(b.id)).toMatchObject({ name: "listed b", status: "pending_activation" });
    for (const k of [a, b]) {
      expect(res.text).not.toContain(k.key);
      expect(res.text).not.toContain(createHash("sha256").update(k.key).digest("hex"));
    }
    for (const raw of (res.body as { data: Record<string, unknown>[] }).data) {
      expect(raw).not.toHaveProperty("key");
      expect(raw).not.toHaveProperty("key_hash");
    }
    // Ordered by id.
    const listIds = list.data.map((k) => k.id);
    expect(listIds).toEqual([...listIds].sort());
  });

  it("shows an expired key as expired", async () => {
    const created = expectOk(
      await post("/keys", {
        name: "soon expired",
        scopes: ["tickets.read"],
        expires_at: "2099-01-01T00:00:00Z",
      }),
      CreatedKey,
      201,
    );
    await api.db.query("update api_keys set expires_at = now() - interval '1 minute' where id = $1", [
      created.id,
    ]);
    const list = ApiKeyList.parse((await listKeys()).body);
    expect(list.data.find((k) => k.id === created.id)?.status).toBe("expired");
  });
});

describe("activate and revoke", () => {
  it("activate turns a pending key active and usable; it is idempotent", async () => {
    const created = expectOk(
      await post("/keys", { name: "to activate", scopes: ["tickets.write", "tickets.read"] }),
      CreatedKey,
      201,
    );
    expectError(await api.get("/v1/ping", created.key), 403, "permission_error", "key_pending_activation");
    const activated = expectOk(await post(`/keys/${created.id}/activate`), ApiKeyView);
    expect(activated).toMatchObject({ id: created.id, status: "active" });
    expect(activated).not.toHaveProperty("key");
    expect(activated.activated_at).not.toBeNull();
    expect((await api.get("/v1/ping", created.key)).status).toBe(200);
    const again = expectOk(await post(`/keys/${created.id}/activate`), ApiKeyView);
    expect(again.activated_at).toBe(activated.activated_at);
  });

  it("revoke makes the key fail at once; it is idempotent; a revoked key cannot be activated", async () => {
    const created = expectOk(
      await post("/keys", { name: "to revoke", scopes: ["tickets.read"] }),
      CreatedKey,
      201,
    );
    expect((await api.get("/v1/ping", created.key)).status).toBe(200);
    const revoked = expectOk(await post(`/keys/${created.id}/revoke`), ApiKeyView);
    expect(revoked).toMatchObject({ id: created.id, status: "revoked" });
    expect(revoked.revoked_at).not.toBeNull();
    expectError(await api.get("/v1/ping", created.key), 401, "authentication_error", "revoked_api_key");
    const again = expectOk(await post(`/keys/${created.id}/revoke`), ApiKeyView);
    expect(again.revoked_at).toBe(revoked.revoked_at);
    expectError(await post(`/keys/${created.id}/activate`), 409, "conflict_error", "key_revoked");
    const list = ApiKeyList.parse((await listKeys()).body);
    expect(list.data.find((k) => k.id === created.id)?.status).toBe("revoked");
  });

  it("an unknown or malformed id is 404 key_not_found", async () => {
    for (const id of ["0123456789abcdef01234567", "nope", "0123456789ABCDEF0123456Z"]) {
      for (const action of ["activate", "revoke"]) {
        expectError(await post(`/keys/${id}/${action}`), 404, "not_found_error", "key_not_found");
      }
    }
  });

  it("admin answers carry the common headers and other methods are 405", async () => {
    expectCommonHeaders(await listKeys());
    const res = await api.request("/admin/keys", { method: "DELETE", headers: ADMIN });
    expectError(res, 405, "invalid_request_error", "method_not_allowed");
    expect(res.headers.get("allow")).toMatch(/GET/);
    expectError(
      await api.request("/admin/keys/0123456789abcdef01234567/revoke", { method: "GET", headers: ADMIN }),
      405,
      "invalid_request_error",
      "method_not_allowed",
    );
  });
});
