import "server-only";
import type { RateLimits } from "@/lib/contract/resources";
import type { Db } from "@/lib/db/db";
import { createTestApi, type TestApi } from "../../integration-api/testing/test-api";
import { addUser } from "../server/auth/accounts";
import type { Dashboard } from "../server/dashboard";
import type { Role } from "../shared/permissions";
import { openTestDashboardStore } from "./dashboard-store";
import { installDashboard, TEST_API_KEY, testDashboard } from "./test-dashboard";

/**
 * The console's route handlers in-process, against a real store and the real Integration API
 * (in-process too: `app.request`, its own store, demo seed and rate limiter). Requests are plain
 * `Request`s given to the exported handler functions, exactly as Next.js calls them, minus the socket.
 */

export const ORIGIN = "http://console.test";
export const PASSWORDS: Record<Role, string> = {
  manager: "manager-test-pass",
  supervisor: "supervisor-test-pass",
  staff: "staff-test-pass",
};

/** A route handler of any segment's params (each module types its own). */
type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
export type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>;

export interface Harness {
  /** The in-process Integration API (null with `upstream: false`). */
  api: TestApi | null;
  db: Db;
  dashboard: Dashboard;
  key: string;
  /** Signs a user in through the login route handler; answers the Cookie header to send. */
  signIn(username: string, password: string, cookie?: string): Promise<{ status: number; cookie: string }>;
  call(
    module: RouteModule,
    method: keyof RouteModule,
    path: string,
    options?: {
      cookie?: string;
      body?: unknown;
      headers?: Record<string, string>;
      params?: Record<string, string>;
    },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** The cookies a response sets, as a Cookie header (cleared ones left out). */
export function cookiesOf(response: Response, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf("=")), c] as const),
  );
  for (const set of response.headers.getSetCookie()) {
    const pair = set.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    if (/Max-Age=0/.test(set)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/**
 * Starts the console in-process. Without `upstream: false` it runs against the real Integration API
 * (demo seed at `scale`, a key with every scope and `rateLimits`); with it, against none.
 */
export async function startHarness(
  options: {
    scale?: number;
    rateLimits?: Partial<RateLimits>;
    env?: Record<string, string>;
    upstream?: boolean;
    /**
     * One clock for the console (what "today" is at the gate, its per-minute rules) and the
     * Integration API (its writes and rate limiter); the real one by default.
     */
    clock?: () => Date;
  } = {},
): Promise<Harness> {
  const clock = options.clock;
  const api =
    options.upstream === false
      ? null
      : await createTestApi({
          scale: options.scale ?? 0.02,
          ...(clock ? { clock } : {}),
        });
  const key = api
    ? (
        await api.createKey({
          name: "console harness",
          scopes: ["*"],
          activate: true,
          rate_limits: options.rateLimits,
        })
      ).key
    : TEST_API_KEY;
  const db = await openTestDashboardStore();
  const dashboard = testDashboard(db, {
    // The console's public address is the one its requests name (the Host check).
    env: { CASHLESS_API_KEY: key, PUBLIC_URL: ORIGIN, ...options.env },
    ...(api ? { fetch: async (url: string, init: RequestInit) => api.app.request(url, init) } : {}),
    client: { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 50))) },
    clock,
  });
  installDashboard(dashboard);
  for (const role of ["manager", "supervisor", "staff"] as const)
    await addUser(db, role, PASSWORDS[role], role);

  const call: Harness["call"] = async (module, method, path, opts = {}) => {
    const handler = module[method];
    if (!handler) throw new Error(`${path} has no ${method} handler`);
    const headers: Record<string, string> = { host: "console.test", ...opts.headers };
    if (opts.cookie) headers.cookie = opts.cookie;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    // State changes come from the console's own page, unless the caller says otherwise ("" = none).
    if (method !== "GET") headers.origin ??= ORIGIN;
    for (const [name, value] of Object.entries(headers)) if (value === "") delete headers[name];
    const request = new Request(`${ORIGIN}${path}`, { method, headers, body });
    return handler(request, { params: Promise.resolve(opts.params ?? {}) as Promise<never> });
  };
  const login = await import("@/app/api/auth/login/route");
  const signIn: Harness["signIn"] = async (username, password, cookie = "") => {
    const res = await call(login, "POST", "/api/auth/login", {
      body: { username, password },
      headers: cookie ? { cookie } : {},
    });
    return { status: res.status, cookie: cookiesOf(res, cookie) };
  };
  return {
    api,
    db,
    dashboard,
    key,
    signIn,
    call,
    close: async () => {
      await db.close();
      await api?.close();
    },
  };
}
