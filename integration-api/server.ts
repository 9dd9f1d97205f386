import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { type Clock, resolveStartAt, SandboxClock, systemClock } from "../lib/contract/clock";
import { createApp } from "./app";
import { type ApiConfig, ConfigError, isSandbox } from "./config";
import { seedDemo } from "./seed/demo-seed";
import { createServices } from "./services";
import type { Sandbox } from "./simulator/sandbox-controls";
import { TerminalSimulator } from "./simulator/terminal-simulator";
import { type Db, openDb } from "./store/db";
import { idempotencyStore } from "./store/idempotency-store";
import { migrate } from "./store/migrate";

export const ADMIN_TOKEN_FILE = "admin-token";

/**
 * The admin token: configured, or — only in the sandbox — generated once and kept in the data
 * dir so that a restart and the keys CLI find the same one.
 */
export function resolveAdminToken(config: ApiConfig): string {
  if (config.API_ADMIN_TOKEN) return config.API_ADMIN_TOKEN;
  if (!isSandbox(config)) {
    throw new ConfigError(
      "API_ADMIN_TOKEN: required (at least 24 characters) unless API_SEED=demo and API_ENVIRONMENT=test",
    );
  }
  const file = join(config.API_DATA_DIR, ADMIN_TOKEN_FILE);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(config.API_DATA_DIR, { recursive: true });
  const token = `adm_${randomBytes(24).toString("base64url")}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

/** Opens the configured store (PostgreSQL or the embedded PGlite) and runs the migrations. */
export async function openStore(config: ApiConfig): Promise<Db> {
  const db = await openDb({
    databaseUrl: config.API_DATABASE_URL,
    dataDir: join(config.API_DATA_DIR, "pglite"),
  });
  await migrate(db);
  return db;
}

/**
 * The service's clock: the system clock, or in the sandbox a clock its controls can move, starting at
 * SANDBOX_START_AT when set.
 */
export function serviceClock(config: ApiConfig): SandboxClock | null {
  if (!isSandbox(config)) return null;
  return config.SANDBOX_START_AT
    ? SandboxClock.startingAt(resolveStartAt(config.SANDBOX_START_AT, config.API_SEED_TIME_ZONE))
    : new SandboxClock(0);
}

/** Opens the store and, for the demo, seeds it when empty (around the clock's now). */
export async function prepareStore(
  config: ApiConfig,
  log = console.log,
  clock: Clock = systemClock,
): Promise<Db> {
  const db = await openStore(config);
  const [{ count }] = await db.query<{ count: number }>("select count(*)::int as count from event");
  if (count === 0 && config.API_SEED === "demo") {
    const started = Date.now();
    const summary = await seedDemo(db, {
      scale: config.API_SEED_SCALE,
      random: config.API_SEED_RANDOM,
      timeZone: config.API_SEED_TIME_ZONE,
      now: clock(),
    });
    log(
      `[integration-api] seeded the demo event in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(summary)}`,
    );
  } else if (count === 0) {
    throw new ConfigError("API_SEED: the store holds no event; start once with API_SEED=demo to create one");
  }
  return db;
}

export interface RunningServer {
  url: string;
  port: number;
  adminToken: string;
  db: Db;
  /** The sandbox's clock and controls (null outside the sandbox); a console attaches itself to it. */
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

export async function startServer(config: ApiConfig, log = console.log): Promise<RunningServer> {
  const adminToken = resolveAdminToken(config);
  const sandboxClock = serviceClock(config);
  const clock = sandboxClock?.now ?? systemClock;
  const db = await prepareStore(config, log, clock);
  const services = await createServices(db, {
    environment: config.API_ENVIRONMENT,
    adminToken,
    trustProxyHops: config.API_TRUST_PROXY,
    clock,
  });
  if (db.kind === "pglite") {
    // One process owns an embedded store: a claim left unfinished belongs to a process that died,
    // and its transaction never committed, so the client may retry it.
    await db.query("delete from idempotency_keys where response_status is null");
  }
  const purge = setInterval(() => idempotencyStore.purgeExpired(db, clock()).catch(() => undefined), 600_000);
  purge.unref();
  const simulator =
    config.API_SIMULATOR === "on"
      ? new TerminalSimulator(services, {
          rate: config.API_SIMULATOR_RATE,
          seed: config.API_SIMULATOR_SEED,
          log: (m) => log(`[integration-api] ${m}`),
        })
      : null;
  simulator?.start();
  const sandbox: Sandbox | null = sandboxClock ? { clock: sandboxClock, console: null } : null;
  const app = createApp(services, { simulator: simulator ?? undefined, sandbox: sandbox ?? undefined });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.API_PORT, hostname: config.API_HOST }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.API_PORT;
  const url = `http://${config.API_HOST}:${port}`;
  return {
    url,
    port,
    adminToken,
    db,
    sandbox,
    close: async () => {
      clearInterval(purge);
      if (simulator) {
        await simulator.stop();
        log(`[integration-api] simulator stopped: ${JSON.stringify(simulator.stats)}`);
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
