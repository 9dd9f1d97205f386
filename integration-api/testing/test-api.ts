import type { CreatedKey, CreateKeyRequest } from "../../lib/contract/admin";
import type { Clock } from "../../lib/contract/clock";
import { openTestDb, testDatabaseUrls } from "../../lib/testing/test-db";
import { createApp } from "../app";
import { seedDemo } from "../seed/demo-seed";
import { createServices } from "../services";
import { TerminalSimulator } from "../simulator/terminal-simulator";
import type { Db } from "../store/db";
import { migrate } from "../store/migrate";

export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";
/** A fixed instant so seeded data (and so every assertion on it) is the same on every run. */
export const TEST_NOW = new Date("2026-07-11T20:30:00.000Z");

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestApiOptions {
  scale?: number;
  random?: number;
  now?: Date;
  /** Reverse proxies trusted for X-Forwarded-For (IP allow-list tests). */
  trustProxyHops?: number;
  /** A simulator (not started) and its sandbox admin routes, as API_SIMULATOR=on has. */
  simulator?: boolean;
  /** The service's clock (its writes and rate limiter; default the system clock). */
  clock?: Clock;
}

/**
 * The real service in-process: an in-memory PGlite store (a throwaway PostgreSQL schema when
 * API_DATABASE_URL is set), migrations, the demo seed, the Hono app.
 * Requests go through app.request, exactly the code path of the HTTP server minus the socket.
 */
export async function createTestApi(options: TestApiOptions = {}) {
  const seed = { scale: options.scale ?? 0.05, random: options.random ?? 7, now: options.now ?? TEST_NOW };
  // Built once per test run (on PGlite), each test API opening a copy of its own.
  const db: Db = await openTestDb(testDatabaseUrls.api, {
    key: `api-demo ${JSON.stringify(seed)}`,
    build: async (fresh) => {
      await migrate(fresh);
      await seedDemo(fresh, seed);
    },
  });
  const services = await createServices(db, {
    environment: "test",
    adminToken: TEST_ADMIN_TOKEN,
    trustProxyHops: options.trustProxyHops ?? 0,
    clock: options.clock,
  });
  const errors: unknown[] = [];
  const simulator = options.simulator
    ? new TerminalSimulator(services, { rate: 1, seed: 5, offlineChance: 0 })
    : undefined;
  const app = createApp(services, { log: (err) => errors.push(err), simulator });

  async function request<T = unknown>(path: string, init: RequestInit = {}): Promise<TestResponse<T>> {
    const response = await app.request(path, init);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON (the reference page)
    }
    return { status: response.status, headers: response.headers, body: body as T, text };
  }

  /** GET with a key. */
  const get = <T = unknown>(path: string, key: string, headers: Record<string, string> = {}) =>
    request<T>(path, { headers: { authorization: `Bearer ${key}`, ...headers } });

  async function createKey(body: Partial<CreateKeyRequest> & { scopes: CreateKeyRequest["scopes"] }) {
    const res = await request<CreatedKey>("/admin/keys", {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "test key", ...body }),
    });
    if (res.status !== 201) throw new Error(`key creation failed: ${res.text}`);
    return res.body;
  }

  /** Follows next_cursor until has_more is false; returns every item. */
  async function walk<T extends { id: string }>(path: string, key: string, limit = 200): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    for (;;) {
      const sep = path.includes("?") ? "&" : "?";
      const url: string = `${path}${sep}limit=${limit}${cursor ? `&starting_after=${cursor}` : ""}`;
      const res: TestResponse<{ data: T[]; has_more: boolean; next_cursor: string | null }> = await get<{
        data: T[];
        has_more: boolean;
        next_cursor: string | null;
      }>(url, key);
      if (res.status !== 200) throw new Error(`walk ${url}: ${res.status} ${res.text}`);
      items.push(...res.body.data);
      if (!res.body.has_more) return items;
      cursor = res.body.next_cursor;
    }
  }

  return { db, services, app, simulator, request, get, createKey, walk, errors, close: () => db.close() };
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;
