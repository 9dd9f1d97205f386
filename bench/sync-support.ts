/**
 * What the sync benchmarks share: a fetch that counts upstream requests, the virtual clock that lets
 * quota pauses pass instantly, the seeded API store and its volumes.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createApp } from "@/integration-api/app";
import { createServices } from "@/integration-api/services";
import { migrate } from "@/integration-api/store/migrate";
import { freePort, spawnApi } from "@/integration-api/testing/api-process";
import { type Db, openDb } from "@/lib/db/db";
import { type FetchLike, type Sleep, UpstreamClient } from "@/lib/server/upstream/client";

// ── counting fetch ────────────────────────────────────────────────────────────────────────────

/** Upstream requests by resource path (`/transactions`, `/transactions?day_id` for a day re-walk…), and 429s. */
export class Counter {
  readonly byPath = new Map<string, number>();
  total = 0;
  rateLimited = 0;
  /** Attempts that got no answer (timeouts, refused or reset connections). */
  noAnswer = 0;
  statuses = new Map<number, number>();

  wrap(inner: FetchLike): FetchLike {
    return async (url, init) => {
      const u = new URL(url);
      const path = u.pathname.replace(/^\/v1/, "") + (u.searchParams.has("day_id") ? "?day_id" : "");
      this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
      this.total++;
      const res = await inner(url, init).catch((err) => {
        this.noAnswer++;
        throw err;
      });
      this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) this.rateLimited++;
      return res;
    };
  }

  get(path: string) {
    return this.byPath.get(path) ?? 0;
  }
}

// ── virtual clock ─────────────────────────────────────────────────────────────────────────────

/** The real clock plus every sleep skipped so far: sleeping moves it forward instantly. */
export class VirtualClock {
  private readonly origin: number;
  skippedMs = 0;

  /** Starts at `startMs` (default: now) and runs with the real clock, plus every skipped sleep. */
  constructor(startMs = Date.now()) {
    this.origin = startMs - performance.now();
  }

  sleeps = 0;

  nowMs = () => this.origin + performance.now() + this.skippedMs;
  now = () => new Date(this.nowMs());
  sleep: Sleep = async (ms, signal) => {
    signal?.throwIfAborted();
    this.skippedMs += Math.max(0, ms);
    this.sleeps++;
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
  };
}

// ── what the API holds ────────────────────────────────────────────────────────────────────────

export interface Volumes {
  tickets: number;
  review_wristbands: number;
  sales: number;
  topups: number;
  scans: number;
  days: number;
}

export async function volumes(db: Db): Promise<Volumes> {
  const [row] = await db.query<Volumes>(
    `select (select count(*) from tickets)::int as tickets,
       (select count(*) from wristbands where status = 'pending_review')::int as review_wristbands,
       (select count(*) from sales)::int as sales, (select count(*) from topups)::int as topups,
       (select count(*) from scans)::int as scans, (select count(*) from days)::int as days`,
  );
  return row;
}

/** The API store's volumes (every status: the lists hold them all), seeding it first if empty. */
export async function seededApiStore(apiDir: string, scale: number): Promise<Volumes> {
  const count = async () => {
    const db = await openDb({ dataDir: join(apiDir, "pglite") });
    try {
      await migrate(db);
      return await volumes(db);
    } finally {
      await db.close();
    }
  };
  const v = await count();
  if (v.days > 0) return v;
  console.log(`Seeding ${apiDir} (scale ${scale}) by starting the API once, as bench/api-read does…`);
  const api = await spawnSeededApi(apiDir, scale, 1_800_000);
  await api.stop();
  return count();
}

/** The API as its own process on the store seeded at `scale` (seeding it if empty), simulator off. */
export async function spawnSeededApi(apiDir: string, scale: number, startTimeoutMs: number) {
  return spawnApi(
    {
      API_PORT: String(await freePort(4300, 4399)),
      API_DATA_DIR: apiDir,
      API_SEED: "demo",
      API_SEED_SCALE: String(scale),
      API_SIMULATOR: "off",
      API_ENVIRONMENT: "test",
    },
    { startTimeoutMs, echo: "  " },
  );
}

export const READ_SCOPES = [
  "event.read",
  "tickets.read",
  "checkins.read",
  "cashless.read",
  "reports.read",
] as const;

/**
 * The API in-process (`app.request`, no port) on `apiDb`, its rate limiter on `clock`, and a way to
 * make read keys with the default quota (each key its own bucket).
 */
export async function inProcessApi(apiDb: Db, clock: VirtualClock) {
  const token = `bench-admin-${"x".repeat(24)}`;
  const services = await createServices(apiDb, {
    environment: "test",
    adminToken: token,
    clock: clock.now,
  });
  const app = createApp(services, { log: (err) => console.error("[integration-api]", err) });
  const newKey = async (name: string) => {
    const res = await app.request("/admin/keys", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name, scopes: READ_SCOPES }),
    });
    if (res.status !== 201) throw new Error(`key: ${res.status} ${await res.text()}`);
    return (await res.json()) as { key: string; rate_limits: { read: number } };
  };
  /** The worker's client on `key`, on the virtual clock, every request counted. */
  const client = (key: string, counter: Counter) =>
    new UpstreamClient({
      baseUrl: "http://integration-api.bench/v1",
      apiKey: key,
      fetch: counter.wrap(async (url, init) => app.request(url, init)),
      now: clock.now,
      sleep: clock.sleep,
    });
  return { app, newKey, client };
}
