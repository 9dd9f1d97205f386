import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { networkInterfaces } from "node:os";
import { expect, test } from "@playwright/test";
import { can, roles } from "../lib/shared/permissions";
import { E2E_API_PORT, E2E_PORT } from "../playwright.config";
import { codeVideo, phoneWithCamera } from "./phone-camera";
import {
  expectSecurePage,
  expectSecurityHeaders,
  SHARED_SANDBOX,
  signIn,
  violationsOf,
  waitForFirstSync,
  watchPolicies,
} from "./support";

// The demo accounts and the sandbox clock: one such spec at a time (e2e/support.ts).
test.describe.configure({ lock: SHARED_SANDBOX });

/**
 * The sandbox as a browser and an attacker meet it: the security headers on pages for every role
 * and on route handlers, no Content-Security-Policy violation (every screen's: on the walk of
 * e2e/accessibility.spec.ts; the scanner's WebAssembly loaded and reading: here), 405 for TRACE
 * and friends on any path, the Host check, and where the sandbox listens.
 */

const ORIGIN = `http://localhost:${E2E_PORT}`;

/**
 * Every screen as every role that can open it, and a ticket's, a wristband's and a terminal's
 * pages: their headers, nonces and no CSP violation are checked on the walk that
 * e2e/accessibility.spec.ts makes anyway (its `open`). Here: the sign-in page, a mistyped address
 * and route handlers, for every role.
 */
test("the sign-in page, a missing page and route handlers carry the security headers for every role; no CSP violation", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  for (const role of roles) {
    const context = await browser.newContext();
    const messages = await watchPolicies(context);
    const page = await context.newPage();
    await expectSecurePage(await page.goto("/login"), "/login");
    await signIn(page, role);
    if (role === "manager") await waitForFirstSync(page);
    await expectSecurePage(await page.goto("/no-such-screen"), `${role} /no-such-screen`, 404);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await violationsOf(page), `${role} /no-such-screen`).toEqual([]);
    // Route handlers: an answer, an export, a refusal.
    for (const [path, status] of [
      ["/api/connection", 200],
      ["/api/alerts/count", 200],
      ["/api/live/sales?cursor=MXx4", can(role, "sales.view") ? 400 : 403],
      ["/api/reconciliation/export", can(role, "reconciliation.view") ? 200 : 403],
    ] as const) {
      const response = await page.request.get(path);
      expect(response.status(), `${role} ${path}`).toBe(status);
      expectSecurityHeaders(response, `${role} ${path}`);
    }
    const foreign = await page.request.post("/api/auth/locale", {
      headers: { origin: "http://evil.example" },
      data: { locale: "en" },
    });
    expect(foreign.status()).toBe(403);
    expectSecurityHeaders(foreign, `${role} POST /api/auth/locale (foreign)`);
    expect(messages, role).toEqual([]);
    await context.close();
  }
});

test("the scanner loads its WebAssembly and reads a code under the CSP", async () => {
  test.setTimeout(180_000);
  const code = "CSP-SCAN-404";
  const video = await codeVideo(test.info().outputPath("csp-qr.y4m"), code, "QRCode");
  const { browser, context, page } = await phoneWithCamera(video);
  try {
    const messages = await watchPolicies(context);
    await page.reload();
    await page.getByRole("button", { name: "Scan" }).click();
    // Debian's Chromium has no BarcodeDetector: the ponyfill compiles ZXing's .wasm, then reads.
    // The code read runs the search at once: nothing has it.
    await expect(page.getByText(`Nothing with the code ${code}`)).toBeVisible({ timeout: 60_000 });
    const wasm = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((n) => n.endsWith(".wasm")),
    );
    expect(wasm.some((url) => /\/_next\/static\/media\/zxing_reader\.[^/]+\.wasm$/.test(url))).toBe(true);
    expect(await violationsOf(page)).toEqual([]);
    expect(messages).toEqual([]);
  } finally {
    await browser.close();
  }
});

/** A raw request (any method, any Host), as no browser would send it. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: E2E_PORT, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

test("TRACE and other unknown methods are 405 on any path, pages included, in the error envelope", async () => {
  for (const path of ["/", "/login", "/sales", "/api/live/sales", "/api/auth/login", "/api/nowhere"])
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "SEARCH"]) {
      const res = await raw(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(JSON.parse(res.body), `${method} ${path}`).toMatchObject({
        error: { code: "method_not_allowed" },
      });
      expect(res.headers.allow).toBeTruthy();
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
  const post = await raw("POST", "/sales", { "content-type": "application/json" }, "{}");
  expect(post.status).toBe(405);
  expect(post.headers.allow).toBe("GET, HEAD");
  const del = await raw("DELETE", "/api/alerts");
  expect(del.status).toBe(405);
  expect(del.headers.allow).toBe("GET, HEAD, OPTIONS");
  expect(JSON.parse(del.body)).toMatchObject({ error: { code: "method_not_allowed" } });
});

test("a DNS-rebinding host is refused: the Origin check checks the Host too", async () => {
  const body = JSON.stringify({ username: "manager", password: "manager-demo-pass" });
  const headers = (host: string) => ({ host, origin: `http://${host}`, "content-type": "application/json" });
  const rebinding = await raw("POST", "/api/auth/login", headers(`evil.example:${E2E_PORT}`), body);
  expect(rebinding.status).toBe(403);
  expect(JSON.parse(rebinding.body)).toMatchObject({ error: { code: "unknown_host" } });
  expect(rebinding.headers["set-cookie"]).toBeUndefined();
  // The console's own names still sign in: localhost and the loopback address.
  for (const host of [`localhost:${E2E_PORT}`, `127.0.0.1:${E2E_PORT}`]) {
    const ok = await raw("POST", "/api/auth/login", headers(host), body);
    expect(ok.status, host).toBe(200);
  }
});

/** The local addresses a port is listened on (Linux: /proc/net/tcp and tcp6, state 0A = LISTEN). */
function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== "0A") continue;
      const [address, hexPort] = local.split(":");
      if (Number.parseInt(hexPort!, 16) !== port) continue;
      found.push(address!);
    }
  }
  return found;
}

test("the sandbox listens on 127.0.0.1 only: dashboard and Integration API", async () => {
  const LOOPBACK_V4 = "0100007F"; // 127.0.0.1, little-endian
  for (const port of [E2E_PORT, E2E_API_PORT]) {
    const addresses = listeningAddresses(port);
    expect(addresses.length, `port ${port}`).toBeGreaterThan(0);
    expect(addresses, `port ${port}`).toEqual(addresses.map(() => LOOPBACK_V4));
  }
  // And from another interface of this machine nothing answers.
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal);
  if (external) {
    const refused = await fetch(`http://${external.address}:${E2E_PORT}/login`).then(
      () => "answered",
      (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
    );
    expect(refused).toBe("ECONNREFUSED");
  }
  expect((await fetch(`${ORIGIN}/login`)).status).toBe(200);
});
