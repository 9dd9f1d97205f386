/**
 * `npm start`: the whole sandbox in one command.
 *
 * Without CASHLESS_API_URL/CASHLESS_API_KEY: starts the Integration API (demo event + simulator) on
 * API_PORT, provisions a dashboard key through its admin API (kept under DATA_DIR), creates the demo
 * logins, builds the dashboard if needed and starts it on PORT. With both set: only the dashboard,
 * against that upstream. Ctrl-C stops everything; a restart keeps all data.
 *
 * Where it listens: the sandbox on 127.0.0.1 only (its sign-in page shows the demo passwords)
 * unless HOST says otherwise; against a real upstream on HOST, else on every interface (a
 * production console sits behind its reverse proxy). The Integration API listens on API_HOST
 * (127.0.0.1 by default). Next.js runs with its telemetry off.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import { loadApiConfig } from "../integration-api/config";
import { type RunningServer, startServer } from "../integration-api/server";
import { scopes } from "../lib/contract/resources";
import { addUser, listUsers } from "../lib/server/auth/accounts";
import { DEMO_USERS } from "../lib/server/auth/demo-users";
import { openDashboardStore } from "../lib/server/store";
import { buildDashboardIfNeeded } from "./dashboard-build";
import { listenHost } from "./listen-host";
import { nextEnv, nextStartArgs } from "./next-process";
import { attachConsole } from "./sandbox-console";
import { buildNotice, isNextBannerLine, isReadyLine, isSimulatorChatter, readyBanner } from "./start-output";

const env = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z
      .string()
      .regex(/^[A-Za-z0-9.:[\]%-]{1,255}$/, "HOST: an interface's address or name, such as 0.0.0.0 or ::")
      .optional(),
    DATA_DIR: z.string().min(1).default(".data"),
    // The sandbox key's read limit a minute (the spec's default 120); the browser tests, which look
    // up far faster than a gate, raise it so that the fair-use share of lookups is not what they test.
    SANDBOX_READ_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
    DATABASE_URL: z.string().optional(),
    CASHLESS_API_URL: z.string().optional(),
    CASHLESS_API_KEY: z.string().optional(),
    SESSION_SECRET: z.string().optional(),
  })
  .parse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== "")));

/** Scopes the dashboard needs: every read for the mirror, every write for the staff tools (not "*"). */
const DASHBOARD_SCOPES = scopes.filter((s) => s !== "*");

function secretFile(path: string, make: () => string): string {
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  writeFileSync(path, `${make()}\n`, { mode: 0o600 });
  return readFileSync(path, "utf8").trim();
}

/** The dashboard's key on the embedded API: kept under DATA_DIR, re-issued if it stopped working. */
async function provisionKey(api: RunningServer, dataDir: string): Promise<string> {
  const file = join(dataDir, "dashboard-key.json");
  if (existsSync(file)) {
    const { key } = JSON.parse(readFileSync(file, "utf8")) as { key: string };
    const ping = await fetch(`${api.url}/v1/ping`, { headers: { authorization: `Bearer ${key}` } });
    if (ping.ok) return key;
    console.log(`[start] the stored dashboard key answers ${ping.status}; issuing a new one`);
  }
  const res = await fetch(`${api.url}/admin/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "Dashboard (sandbox)",
      scopes: DASHBOARD_SCOPES,
      activate: true,
      rate_limits: { read: env.SANDBOX_READ_LIMIT },
    }),
  });
  if (res.status !== 201) throw new Error(`key provisioning failed: ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { id: string; key: string };
  writeFileSync(file, `${JSON.stringify({ id: created.id, key: created.key }, null, 2)}\n`, { mode: 0o600 });
  return created.key;
}

async function ensureDemoUsers(dataDir: string, databaseUrl?: string) {
  const db = await openDashboardStore({ dataDir, databaseUrl });
  try {
    const existing = new Set((await listUsers(db)).map((u) => u.username));
    for (const user of DEMO_USERS) {
      if (!existing.has(user.username)) await addUser(db, user.username, user.password, user.role);
    }
  } finally {
    await db.close();
  }
}

async function main() {
  mkdirSync(env.DATA_DIR, { recursive: true });
  const external = Boolean(env.CASHLESS_API_URL && env.CASHLESS_API_KEY);
  let api: RunningServer | null = null;
  let apiUrl = env.CASHLESS_API_URL ?? "";
  let apiKey = env.CASHLESS_API_KEY ?? "";
  let sessionSecret = env.SESSION_SECRET;

  if (!external) {
    api = await startServer(loadApiConfig(process.env), (line) => {
      if (!isSimulatorChatter(line)) console.log(line);
    });
    console.log(`[start] Integration API on ${api.url} (reference: ${api.url}/v1/reference)`);
    apiUrl = `${api.url}/v1`;
    apiKey = await provisionKey(api, env.DATA_DIR);
    sessionSecret ??= secretFile(join(env.DATA_DIR, "session-secret"), () =>
      randomBytes(32).toString("base64url"),
    );
    await ensureDemoUsers(env.DATA_DIR, env.DATABASE_URL);
  }

  buildDashboardIfNeeded((first) => console.log(buildNotice(first)));
  const host = listenHost({ HOST: env.HOST, sandbox: !external });
  const dashboard: ChildProcess = spawn(process.execPath, nextStartArgs(env.PORT, host.bind), {
    // The IPC channel links the console to the sandbox's clock and controls (sandbox-console.ts).
    stdio: ["ignore", "pipe", "inherit", ...(api?.sandbox ? (["ipc"] as const) : [])],
    env: nextEnv({
      ...process.env,
      CASHLESS_API_URL: apiUrl,
      CASHLESS_API_KEY: apiKey,
      ...(sessionSecret ? { SESSION_SECRET: sessionSecret } : {}),
      DATA_DIR: env.DATA_DIR,
      SANDBOX: external ? "off" : "on",
      // The console's clock reads the sandbox's instant from its first request on.
      ...(api?.sandbox ? { SANDBOX_CLOCK_OFFSET_MS: String(api.sandbox.clock.offsetMs) } : {}),
    }),
  });
  if (api?.sandbox) attachConsole(api.sandbox, dashboard);

  // The address and the logins once the dashboard answers (Next's "Ready" line; a minute at most).
  let announced = false;
  const announce = () => {
    if (announced) return;
    announced = true;
    clearTimeout(fallback);
    const banner = readyBanner({
      url: `http://localhost:${env.PORT}`,
      hostNote: host.note,
      logins: external ? undefined : DEMO_USERS,
    });
    console.log(banner.join("\n"));
  };
  const fallback = setTimeout(announce, 60_000);
  createInterface({ input: dashboard.stdout! }).on("line", (line) => {
    if (isReadyLine(line)) announce();
    if (!isNextBannerLine(line)) console.log(line);
  });

  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    dashboard.kill("SIGTERM");
    await api?.close();
    process.exit(code);
  };
  dashboard.on("exit", (code) => {
    if (!stopping) {
      console.error(`[start] the dashboard exited (${code}); stopping`);
      void stop(code ?? 1);
    }
  });
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((err) => {
  console.error(`[start] ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
