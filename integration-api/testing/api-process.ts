import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The real service as a child process, for tests and benchmarks that need a socket, a restart or
 * a SIGKILL. Node runs main.ts directly with tsx's loader (no npx in between), so the pid is the
 * server's own and a signal reaches it.
 */

export const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const MAIN = join(REPO_ROOT, "integration-api", "main.ts");

export interface ApiProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM (graceful: the service closes its store) and wait for the exit. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** SIGKILL, no chance to clean up, and wait for the exit. */
  crash(): Promise<void>;
}

export interface SpawnApiOptions {
  /** Waits this long for "listening on" (the first start seeds the store). */
  startTimeoutMs?: number;
  /** Prints the child's output as it comes, with this prefix. */
  echo?: string;
}

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  // The parent's own API_* settings must not leak into the child: only what the caller passes.
  for (const key of Object.keys(base)) if (key.startsWith("API_")) delete base[key];
  return { ...base, ...env };
}

export function spawnApi(env: Record<string, string>, options: SpawnApiOptions = {}): Promise<ApiProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (options.echo) {
      for (const line of chunk.toString().split("\n")) if (line) console.log(`${options.echo}${line}`);
    }
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);

  const api = (url: string): ApiProcess => ({
    child,
    pid: child.pid!,
    url,
    output: () => output,
    exited,
    stop: async (timeoutMs = 60_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
    crash: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  });

  return new Promise((resolveStart, rejectStart) => {
    const timeoutMs = options.startTimeoutMs ?? 180_000;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      rejectStart(new Error(`the API did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off("data", check);
      resolveStart(api(match[1]));
    };
    child.stdout!.on("data", check);
    exited.then((code) => {
      clearTimeout(timer);
      rejectStart(new Error(`the API exited with ${code} before listening:\n${output}`));
    });
  });
}

/** `npm run api -- verify-ledger` on a store (the service must be stopped, or it is asked over HTTP). */
export function runVerifyLedger(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "verify-ledger"], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c.toString();
  });
  return new Promise((done) => child.once("exit", (code) => done({ code, output: output.trim() })));
}

export function adminToken(dataDir: string): string {
  return readFileSync(join(dataDir, "admin-token"), "utf8").trim();
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * The sandbox clock of a running service (`/admin/sandbox/clock`, under its data dir's admin
 * token): its instant and its offset from the system clock, after moving it `advanceSeconds`
 * forward when given.
 */
export function sandboxClock(
  api: { url: string },
  dataDir: string,
  advanceSeconds?: number,
): Promise<{ now: string; offset_ms: number }> {
  const headers = { authorization: `Bearer ${adminToken(dataDir)}`, "content-type": "application/json" };
  return fetchJson(`${api.url}/admin/sandbox/clock`, {
    headers,
    ...(advanceSeconds === undefined
      ? {}
      : { method: "POST", body: JSON.stringify({ advance_seconds: advanceSeconds }) }),
  });
}

/** An activated key with every scope and (by default) rate limits no test reaches. */
export async function createFullKey(
  url: string,
  token: string,
  limit = 100_000,
  name = "full key",
): Promise<string> {
  const created = await fetchJson<{ key: string }>(`${url}/admin/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      name,
      scopes: ["*"],
      activate: true,
      rate_limits: { read: limit, write: limit, checkin: limit, access: limit },
    }),
  });
  return created.key;
}

/** Follows next_cursor over a list endpoint and returns every item. */
export async function walkList<T extends { id: string }>(
  url: string,
  key: string,
  limit = 200,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (;;) {
    const sep = url.includes("?") ? "&" : "?";
    const page: { data: T[]; has_more: boolean; next_cursor: string | null } = await fetchJson(
      `${url}${sep}limit=${limit}${cursor ? `&starting_after=${cursor}` : ""}`,
      { headers: { authorization: `Bearer ${key}` } },
    );
    items.push(...page.data);
    if (!page.has_more) return items;
    cursor = page.next_cursor;
  }
}

/** The first port of [from, to] nobody listens on (this project's tests and benchmarks use 4300-4399). */
export async function freePort(from: number, to: number): Promise<number> {
  for (let port = from; port <= to; port++) {
    const free = await new Promise<boolean>((done) => {
      const probe = createServer();
      probe.once("error", () => done(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => done(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}
