import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyList, ApiKeyView, CreatedKey } from "../lib/contract/admin";
import { ErrorBody } from "../lib/contract/errors";
import { Ping } from "../lib/contract/resources";
import { type ApiConfig, ConfigError, loadApiConfig } from "./config";
import { ADMIN_TOKEN_FILE, type RunningServer, startServer } from "./server";

/** The service as it runs: real HTTP on a real socket, an on-disk PGlite store, and the keys CLI. */

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../", import.meta.url));
const migrationFiles = readdirSync(fileURLToPath(new URL("./store/migrations/", import.meta.url))).filter(
  (f) => f.endsWith(".sql"),
);

const tempDirs: string[] = [];
const servers: RunningServer[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "integration-api-server-"));
  tempDirs.push(dir);
  return dir;
}

/** The configuration from the environment the service would get, on a free port. */
function config(env: Record<string, string>): ApiConfig {
  return loadApiConfig({ API_SEED_SCALE: "0.02", API_SIMULATOR: "off", API_PORT: "0", ...env });
}

async function start(cfg: ApiConfig, logs: string[] = []): Promise<RunningServer> {
  const server = await startServer(cfg, (line: string) => logs.push(line));
  servers.push(server);
  return server;
}

async function stop(server: RunningServer) {
  await server.close();
  servers.splice(servers.indexOf(server), 1);
}

afterAll(async () => {
  for (const server of [...servers].reverse()) await server.close().catch(() => undefined);
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

async function http(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body, text };
}

const bearer = (token: string, extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${token}`, ...extra },
});

function expectHttpError(
  res: { status: number; headers: Headers; body: unknown },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  const body = ErrorBody.parse(res.body);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("access-control-allow-origin")).toBeNull();
}

describe("the sandbox server", () => {
  let dataDir: string;
  let cfg: ApiConfig;
  let server: RunningServer;
  const firstLogs: string[] = [];
  let eventId: string;
  let cliKey: { id: string; key: string };

  beforeAll(async () => {
    dataDir = tempDir();
    cfg = config({ API_DATA_DIR: dataDir });
    server = await start(cfg, firstLogs);
  });

  it("answers over real HTTP, with the error envelope and common headers", async () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expectHttpError(await http(`${server.url}/v1/ping`), 401, "missing_api_key");
    expectHttpError(await http(`${server.url}/v1/nope`), 404, "route_not_found");
    const doc = await http(`${server.url}/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect((doc.body as { openapi: string }).openapi).toMatch(/^3\.1/);
  });

  it("refuses a write body over 2 MiB with 413 request_too_large, and one just under it is read", async () => {
    const post = (bytes: number) =>
      http(`${server.url}/v1/topups`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
        body: `{"pad":"${"x".repeat(bytes - 10)}"}`,
      });
    const tooLarge = await post(2 * 1024 * 1024 + 1);
    expectHttpError(tooLarge, 413, "request_too_large");
    // Answered before its body was read: the client is told not to reuse the connection, so the
    // requests after it (on a keep-alive pool) do not fail on a socket the server drops.
    expect(tooLarge.headers.get("connection")).toBe("close");
    for (let i = 0; i < 3; i++) expectHttpError(await http(`${server.url}/v1/ping`), 401, "missing_api_key");
    // Under the limit the request goes on to authentication.
    expectHttpError(await post(2 * 1024 * 1024 - 1), 401, "missing_api_key");
    for (let i = 0; i < 3; i++) expectHttpError(await http(`${server.url}/v1/ping`), 401, "missing_api_key");
  });

  it("writes the sandbox admin token to <dataDir>/admin-token and accepts it", async () => {
    const file = join(dataDir, ADMIN_TOKEN_FILE);
    expect(existsSync(file)).toBe(true);
    const token = readFileSync(file, "utf8").trim();
    expect(token.length).toBeGreaterThanOrEqual(24);
    expect(token).toBe(server.adminToken);
    const list = await http(`${server.url}/admin/keys`, bearer(token));
    expect(list.status).toBe(200);
    ApiKeyList.parse(list.body);
    expectHttpError(await http(`${server.url}/admin/keys`, bearer(`${token}x`)), 401, "invalid_admin_token");
  });

  it("ran the migrations and seeded the demo event", async () => {
    const applied = await server.db.query<{ name: string }>(
      "select name from schema_migrations order by name",
    );
    expect(applied.map((m) => m.name)).toEqual([...migrationFiles].sort());
    const [{ tickets }] = await server.db.query<{ tickets: number }>(
      "select count(*)::int as tickets from tickets",
    );
    expect(tickets).toBeGreaterThan(0);
    const [event] = await server.db.query<{ id: string }>("select id from event");
    eventId = event.id;
    expect(firstLogs.some((l) => l.includes("seeded the demo event"))).toBe(true);
  });

  it("serves a key issued through the admin API; the allow-list sees the socket address, not X-Forwarded-For", async () => {
    const issue = async (body: unknown) => {
      const res = await http(`${server.url}/admin/keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status, res.text).toBe(201);
      return CreatedKey.parse(res.body);
    };
    const local = await issue({ name: "local", scopes: ["tickets.read"], allowed_ips: ["127.0.0.1"] });
    const ping = await http(`${server.url}/v1/ping`, bearer(local.key));
    expect(ping.status, ping.text).toBe(200);
    expect(Ping.parse(ping.body).event.id).toBe(eventId);
    expect(ping.headers.get("x-ratelimit-limit")).toBe("120");

    const remote = await issue({ name: "remote", scopes: ["tickets.read"], allowed_ips: ["203.0.113.9"] });
    expectHttpError(await http(`${server.url}/v1/ping`, bearer(remote.key)), 403, "ip_not_allowed");
    // No proxy is trusted (API_TRUST_PROXY=0): a forged X-Forwarded-For changes nothing.
    expectHttpError(
      await http(`${server.url}/v1/ping`, bearer(remote.key, { "x-forwarded-for": "203.0.113.9" })),
      403,
      "ip_not_allowed",
    );
  });

  describe("the keys CLI", () => {
    const cli = async (...args: string[]) => {
      const env: NodeJS.ProcessEnv = { ...process.env, API_URL: server.url, API_DATA_DIR: dataDir };
      delete env.API_ADMIN_TOKEN;
      delete env.API_PORT;
      // Node with tsx's loader, as `npx tsx` runs it, without npx's own start (a CPU-second a call).
      return run(process.execPath, ["--import", "tsx", "integration-api/cli/keys.ts", ...args], {
        cwd: repoRoot,
        env,
        timeout: 180_000,
      });
    };

    it("create --json prints the new key, which works on /v1/ping", async () => {
      const { stdout } = await cli("create", "--name", "x", "--scope", "tickets.read", "--json");
      const created = CreatedKey.parse(JSON.parse(stdout));
      expect(created).toMatchObject({
        name: "x",
        scopes: ["tickets.read"],
        status: "active",
        environment: "test",
      });
      expect(created.key).toMatch(/^eak_test_[A-Za-z0-9_-]{43}$/);
      cliKey = { id: created.id, key: created.key };
      const ping = await http(`${server.url}/v1/ping`, bearer(created.key));
      expect(ping.status, ping.text).toBe(200);
      expect(Ping.parse(ping.body).key).toMatchObject({
        id: created.id,
        name: "x",
        scopes: ["tickets.read"],
      });
      const tickets = await http(`${server.url}/v1/tickets?limit=1`, bearer(created.key));
      expect(tickets.status).toBe(200);
    });

    it("list --json shows the key without its secret", async () => {
      const { stdout } = await cli("list", "--json");
      const list = ApiKeyList.parse(JSON.parse(stdout));
      expect(list.data.find((k) => k.id === cliKey.id)).toMatchObject({ name: "x", status: "active" });
      expect(stdout).not.toContain(cliKey.key);
      expect(stdout).not.toContain(cliKey.key.slice(20));
    });

    it("revoke <id> makes the key fail with revoked_api_key", async () => {
      const { stdout } = await cli("revoke", cliKey.id, "--json");
      expect(ApiKeyView.parse(JSON.parse(stdout))).toMatchObject({ id: cliKey.id, status: "revoked" });
      expectHttpError(await http(`${server.url}/v1/ping`, bearer(cliKey.key)), 401, "revoked_api_key");
    });

    it("a key with a write scope stays pending until `activate <id>`", async () => {
      const pending = CreatedKey.parse(
        JSON.parse((await cli("create", "--name", "w", "--scope", "cashless.write", "--json")).stdout),
      );
      expect(pending.status).toBe("pending_activation");
      expectHttpError(
        await http(`${server.url}/v1/ping`, bearer(pending.key)),
        403,
        "key_pending_activation",
      );
      const activated = ApiKeyView.parse(JSON.parse((await cli("activate", pending.id, "--json")).stdout));
      expect(activated.status).toBe("active");
      expect((await http(`${server.url}/v1/ping`, bearer(pending.key))).status).toBe(200);
    });

    it("reports an admin API error and exits non-zero", async () => {
      const failure = await cli("revoke", "0123456789abcdef01234567").then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failure).not.toBeNull();
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain("404 key_not_found");
    });
  });

  it("a restart reuses the admin token and keeps the data (same event, same keys, no new seed)", async () => {
    const token = server.adminToken;
    await stop(server);
    const logs: string[] = [];
    server = await start(cfg, logs);
    expect(server.adminToken).toBe(token);
    expect(readFileSync(join(dataDir, ADMIN_TOKEN_FILE), "utf8").trim()).toBe(token);
    const [event] = await server.db.query<{ id: string }>("select id from event");
    expect(event.id).toBe(eventId);
    expect(logs.some((l) => l.includes("seeded"))).toBe(false);
    // Keys survive, and so does the revocation.
    expectHttpError(await http(`${server.url}/v1/ping`, bearer(cliKey.key)), 401, "revoked_api_key");
    const list = ApiKeyList.parse((await http(`${server.url}/admin/keys`, bearer(token))).body);
    expect(list.data.find((k) => k.id === cliKey.id)?.status).toBe("revoked");
    const applied = await server.db.query<{ name: string }>("select name from schema_migrations");
    expect(applied.length).toBe(migrationFiles.length);
  });
});

describe("outside the sandbox", () => {
  it("API_ENVIRONMENT=live without API_ADMIN_TOKEN refuses to start, naming API_ADMIN_TOKEN", async () => {
    const dataDir = tempDir();
    const attempt = startServer(config({ API_DATA_DIR: dataDir, API_ENVIRONMENT: "live" }), () => undefined);
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(/API_ADMIN_TOKEN/);
    expect(existsSync(join(dataDir, ADMIN_TOKEN_FILE))).toBe(false);
  });

  it("API_SEED=none without API_ADMIN_TOKEN refuses to start too", async () => {
    const dataDir = tempDir();
    await expect(
      startServer(config({ API_DATA_DIR: dataDir, API_SEED: "none" }), () => undefined),
    ).rejects.toThrow(/API_ADMIN_TOKEN/);
  });

  it("a live deployment with a token issues eak_live_ keys and refuses eak_test_ ones", async () => {
    const dataDir = tempDir();
    const token = "live-admin-token-0123456789abcdef";
    const server = await start(
      config({ API_DATA_DIR: dataDir, API_ENVIRONMENT: "live", API_ADMIN_TOKEN: token }),
    );
    expect(existsSync(join(dataDir, ADMIN_TOKEN_FILE))).toBe(false);
    const res = await http(`${server.url}/admin/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "live", scopes: ["tickets.read"] }),
    });
    expect(res.status, res.text).toBe(201);
    const created = CreatedKey.parse(res.body);
    expect(created.key).toMatch(/^eak_live_[A-Za-z0-9_-]{43}$/);
    expect(created.environment).toBe("live");
    const ping = await http(`${server.url}/v1/ping`, bearer(created.key));
    expect(ping.status).toBe(200);
    expect(Ping.parse(ping.body).environment).toBe("live");
    expectHttpError(
      await http(`${server.url}/v1/ping`, bearer(created.key.replace(/^eak_live_/, "eak_test_"))),
      401,
      "invalid_api_key",
    );
    await stop(server);
  });
});
