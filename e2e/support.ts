import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Page, type Response } from "@playwright/test";
import type { Locale } from "../lib/shared/i18n/locales";
import { translatorFor } from "../lib/shared/i18n/messages";
import { screens } from "../lib/shared/permissions";
import { E2E_API_PORT, E2E_DATA_DIR, E2E_PORT } from "../playwright.config";

/** The console's origin: state changes sent by a test (not by a page) name it, as a browser would. */
export const CONSOLE_ORIGIN = `http://localhost:${E2E_PORT}`;
export const SAME_ORIGIN = { origin: CONSOLE_ORIGIN } as const;

export const LOGINS = {
  manager: { username: "manager", password: "manager-demo-pass" },
  supervisor: { username: "supervisor", password: "supervisor-demo-pass" },
  staff: { username: "staff", password: "staff-demo-pass" },
} as const;

/**
 * A spec that uses the demo accounts (LOGINS: other specs sign them out everywhere, change their
 * language or theme), moves the sandbox's clock or changes what others read declares this lock: with
 * several workers (E2E_WORKERS, docs/testing.md) such specs still run one at a time, in E2E_ORDER,
 * while the specs of OWN_STATE_SPECS (playwright.config.ts) run beside them.
 */
export const SHARED_SANDBOX = "the demo accounts and the sandbox clock";

/** e2e/accessibility.spec.ts's accounts, one per role (e2e/start-sandbox.sh adds them). */
export const ACCESSIBILITY_LOGINS = {
  manager: { username: "a11y-manager", password: "a11y-manager-pass" },
  supervisor: { username: "a11y-supervisor", password: "a11y-supervisor-pass" },
  staff: { username: "a11y-staff", password: "a11y-staff-pass" },
} as const;

/**
 * Signs in through the sign-in page, which speaks `lang` (the browser's language), as `role`'s
 * demo account or as `login`.
 */
export async function signIn(
  page: Page,
  role: keyof typeof LOGINS,
  lang: Locale = "en",
  login: { username: string; password: string } = LOGINS[role],
) {
  const t = translatorFor(lang);
  await page.goto("/login");
  await page.getByLabel(t("login.username")).fill(login.username);
  await page.getByLabel(t("login.password")).fill(login.password);
  await page.getByRole("button", { name: t("login.signIn") }).click();
  // The language is the account's, kept with it: another spec may have chosen another for this
  // account (e2e/spanish-everywhere.spec.ts leaves the demo accounts in Spanish). This spec's is `lang`.
  await expect(page).not.toHaveURL(/\/login/);
  if ((await page.locator("html").getAttribute("lang")) !== lang) {
    const chosen = await page.request.post("/api/auth/locale", {
      data: { locale: lang },
      headers: SAME_ORIGIN,
    });
    expect(chosen.ok(), `the account's language set to ${lang}`).toBe(true);
    await page.reload();
  }
  const signedIn = t.markup("nav.signedInAs", {
    username: login.username,
    role: t(`roles.${role}`),
    name: (chunks) => chunks,
  });
  await expect(page.getByText(signedIn)).toBeVisible();
}

/**
 * Opens a screen from the navigation and waits until the browser is on it, so that nothing the
 * previous screen still shows (its "data as of", a same-named control) is mistaken for the new one.
 */
export async function openScreen(page: Page, label: (typeof screens)[number]["label"]) {
  const screen = screens.find((s) => s.label === label)!;
  await page
    .getByRole("navigation", { name: "Screens" })
    .getByRole("link", { name: label, exact: true })
    .click();
  await expect(page).toHaveURL((url) => url.pathname === screen.href);
}

/** The sandbox API's admin token (sandbox controls, fixture keys). */
export function adminToken(): string {
  return readFileSync(join(E2E_DATA_DIR, "api", "admin-token"), "utf8").trim();
}

/** Longer than a whole sync cycle on a busy machine takes (a first mirror: a minute or two). */
const CONTROL_TIMEOUT_MS = 240_000;

/**
 * A sandbox control of the Integration API (`/admin/...`, docs/testing.md): its JSON answer. Each on a
 * connection of its own: a kept-alive one the server has just closed would fail a control that must
 * not be sent twice (a clock move).
 */
export async function sandboxControl<T>(path: string, body?: unknown): Promise<T> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: E2E_API_PORT,
        path: `/admin${path}`,
        method: payload === undefined ? "GET" : "POST",
        agent: false,
        headers: { authorization: `Bearer ${adminToken()}`, "content-type": "application/json" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on("error", reject);
      },
    );
    // A control that never answers fails the spec with its name, not by the spec's whole timeout.
    req.setTimeout(CONTROL_TIMEOUT_MS, () =>
      req.destroy(new Error(`sandbox control ${path} did not answer within ${CONTROL_TIMEOUT_MS / 1000} s`)),
    );
    req.on("error", reject);
    req.end(payload);
  });
  expect(status, `${path}: ${status} ${text}`).toBeLessThan(300);
  return JSON.parse(text) as T;
}

/** A stand of the sandbox's simulator (a bar, food or merch terminal its controls can take offline). */
export const isSimulatorStand = (deviceId: string) => /^(bar|food|merch)-\d+$/.test(deviceId);

/** The sandbox clock's instant now (the Integration API and the console read the same one). */
export async function sandboxNow(): Promise<Date> {
  return new Date((await sandboxControl<{ now: string }>("/sandbox/clock")).now);
}

/**
 * The environment of a console a spec starts itself against the sandbox API: it reads the sandbox's
 * clock (its offset as of now; the spec does not move the clock while it runs).
 */
export async function sandboxConsoleEnv(): Promise<Record<string, string>> {
  const { offset_ms } = await sandboxControl<{ offset_ms: number }>("/sandbox/clock");
  return { SANDBOX: "on", SANDBOX_CLOCK_OFFSET_MS: String(offset_ms) };
}

/** Moves the sandbox clock forward, in the Integration API and the console alike. */
export async function advanceClock(seconds: number): Promise<Date> {
  return new Date(
    (await sandboxControl<{ now: string }>("/sandbox/clock", { advance_seconds: seconds })).now,
  );
}

/** The console runs a whole sync cycle now (and its after-cycle rules: terminals, alerts, gates). */
export async function syncNow(): Promise<void> {
  await sandboxControl("/sandbox/sync", {});
}

/** Every offline terminal of the simulator comes back and sends its buffer now. */
export async function drainSimulator(): Promise<number> {
  return (await sandboxControl<{ sent: number }>("/simulator/drain", {})).sent;
}

/** The Integration API key `npm start` provisioned for the dashboard (it must never reach a browser). */
export function dashboardKey(): string {
  return (JSON.parse(readFileSync(join(E2E_DATA_DIR, "dashboard-key.json"), "utf8")) as { key: string }).key;
}

/**
 * Waits until the sync worker has finished a whole cycle: the first mirror of the sandbox takes a
 * minute or two, because the worker keeps 40 % of the key's read quota for interactive lookups.
 */
export async function waitForFirstSync(page: Page, timeoutMs = 240_000) {
  await expect
    .poll(
      async () => {
        const res = await page.request.get("/api/connection");
        if (!res.ok()) return 0;
        const body = (await res.json()) as { sync: { worker: { cycles: number } | null } };
        return body.sync.worker?.cycles ?? 0;
      },
      { timeout: timeoutMs, intervals: [2_000] },
    )
    .toBeGreaterThan(0);
}

/** Names the desk on the desk screen's first prompt (each test's browser starts without one). */
export async function nameDesk(page: Page, name = "E2E desk 1") {
  await page.getByLabel("Desk name").fill(name);
  await page.getByRole("button", { name: "Use this desk" }).click();
  await expect(page.getByTestId("desk-name")).toContainText(name);
}

/**
 * A key of the sandbox API of a test's own, with every scope and the limits lifted, so that the
 * fixtures it creates and reads spend nothing of the dashboard's quota.
 */
export async function createFixtureKey(name: string): Promise<string> {
  const res = await fetch(`http://localhost:${E2E_API_PORT}/admin/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken()}`, "content-type": "application/json" },
    body: JSON.stringify({
      name,
      scopes: ["*"],
      activate: true,
      rate_limits: { read: 100000, write: 100000, checkin: 100000, access: 100000 },
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

/** A request to the sandbox API with a fixtures key (a POST gets an Idempotency-Key of its own). */
export async function sandboxApi<T>(
  key: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`http://localhost:${E2E_API_PORT}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      ...(init.method === "POST" ? { "idempotency-key": crypto.randomUUID() } : {}),
      ...init.headers,
    },
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Creates one ticket in the sandbox with a fixtures key. */
export async function createSandboxTicket(
  key: string,
  ticket: { code: string; ticketTypeId: string; name: string; email: string; dayIds: string[] },
) {
  const created = await sandboxApi(key, "/v1/tickets", {
    method: "POST",
    body: JSON.stringify({
      tickets: [
        {
          code: ticket.code,
          ticket_type_id: ticket.ticketTypeId,
          attendee: { name: ticket.name, email: ticket.email },
          valid_days: ticket.dayIds,
        },
      ],
    }),
  });
  expect(created.status).toBe(201);
}

/**
 * Waits until the console's name search finds `typed` (the name comes from the mirror: the sync
 * worker must bring a new ticket in, in a fresh sandbox after its first whole cycle).
 */
export async function waitUntilNameFound(page: Page, typed: string) {
  await waitForFirstSync(page);
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/staff/search?q=${encodeURIComponent(typed)}`);
        if (!res.ok()) return `${res.status()}`;
        // While the tickets are still being mirrored, an answer of names may hold none yet.
        const found = (await res.json()) as { kind: string; matches?: unknown[] };
        if (found.kind !== "names") return found.kind;
        return (found.matches?.length ?? 0) > 0 ? "names" : "names, none yet";
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .toBe("names");
}

/** Letters only (a name made with it is a name, not a code), different on every run. */
export function runWord(): string {
  const letters = randomUUID()
    .replaceAll("-", "")
    .slice(0, 10)
    .replace(/[0-9]/g, (d) => "ghijklmnop"[Number(d)]!);
  return `Q${letters}`;
}

/** A code prefix of a spec's own (upper case letters and digits), different on every run. */
export function runCode(prefix: string): string {
  return `${prefix}${randomUUID().replaceAll("-", "").slice(0, 8).toUpperCase()}`;
}

/**
 * A spec's own tickets in the sandbox: a fixture key, and `freshTicket(suffix)` making the ticket
 * `<run>-<suffix>` of the first ticket type, valid every day.
 */
export async function ticketFixtures(keyName: string, run: string) {
  const key = await createFixtureKey(keyName);
  const type = (await sandboxApi<{ data: { id: string; name: string }[] }>(key, "/v1/ticket-types")).body
    .data[0]!;
  const dayIds = (await sandboxApi<{ data: { id: string }[] }>(key, "/v1/days")).body.data.map((d) => d.id);
  return {
    key,
    ticketTypeName: type.name,
    async freshTicket(suffix: string, name = `Guest ${suffix}`): Promise<string> {
      const code = `${run}-${suffix}`;
      await createSandboxTicket(key, {
        code,
        ticketTypeId: type.id,
        name,
        email: `${suffix.toLowerCase()}@${run.toLowerCase()}.example.com`,
        dayIds,
      });
      return code;
    },
  };
}

export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * Axe's rules that judge colours (its tag `cat.color`) at the levels above: all that can change
 * when only the colours do, as in the dark theme (the same page, another stylesheet). The
 * accessibility spec checks this list against axe's own.
 */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * Axe on the page as it is (WCAG 2.0/2.1/2.2 A and AA, and axe's best practices), its violations
 * only; with `colours`, only the rules that judge colours. In the page itself (legacy mode): the
 * default runs each frame's part, then opens a second page to merge them, about three times the
 * time of the check (5.3 s against 1.3 s on the overview); the console has no frames to merge.
 * Passes and incomplete checks are not gathered.
 */
export async function axeViolations(page: Page, { colours = false } = {}) {
  // options() first: it replaces the options withRules and withTags add the rules to.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode(true);
  const { violations } = await (colours
    ? builder.withRules(COLOUR_RULES)
    : builder.withTags(AXE_TAGS)
  ).analyze();
  return violations;
}

/** Expects axe to find no violation on the page as it is; the message names each rule and node. */
export async function expectNoViolations(page: Page, where: string, options: { colours?: boolean } = {}) {
  const violations = await axeViolations(page, options);
  const found = violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")} — ${n.failureSummary?.split("\n").slice(1).join(" ")}`),
  }));
  expect(found, `axe violations on ${where}`).toEqual([]);
}

/** Collects what the Content-Security-Policy (or the Permissions-Policy) refused in the page. */
export async function watchPolicies(context: BrowserContext): Promise<string[]> {
  await context.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__violations.push(
        `${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  const messages: string[] = [];
  context.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to|Permissions[- ]Policy/i.test(message.text()))
      messages.push(`${message.type()}: ${message.text()}`);
  });
  return messages;
}

export const violationsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);

/** The headers every answer carries; answers the CSP's nonce. */
export function expectSecurityHeaders(
  response: Response | { headers(): Record<string, string> },
  where: string,
) {
  const h = response.headers();
  const csp = h["content-security-policy"] ?? "";
  expect(csp, `${where}: CSP`).toMatch(
    /script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic' 'wasm-unsafe-eval'/,
  );
  expect(csp, where).toContain("frame-ancestors 'none'");
  expect(csp, where).toContain("object-src 'none'");
  expect(h["x-frame-options"], where).toBe("DENY");
  expect(h["x-content-type-options"], where).toBe("nosniff");
  expect(h["referrer-policy"], where).toBe("strict-origin-when-cross-origin");
  expect(h["permissions-policy"], where).toMatch(/^camera=\(self\), microphone=\(\), geolocation=\(\)/);
  // Plain HTTP: no HSTS (it would outlive the sandbox on localhost).
  expect(h["strict-transport-security"], where).toBeUndefined();
  return /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)![1]!;
}

/** Every script of a page carries the request's nonce (Next.js read it from the CSP). */
export function expectScriptsNonced(html: string, nonce: string, where: string) {
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length, where).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, where).toContain(`nonce="${nonce}"`);
}

/**
 * A page as it came from the console: the status, the security headers, and every script carrying
 * the request's nonce.
 */
export async function expectSecurePage(response: Response | null, where: string, status = 200) {
  expect(response, where).not.toBeNull();
  expect(response!.status(), where).toBe(status);
  expectScriptsNonced(await response!.text(), expectSecurityHeaders(response!, where), where);
}
