import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { routeModules } from "@/lib/testing/route-modules";
import { TEST_API_KEY, TEST_SESSION_SECRET } from "@/lib/testing/test-dashboard";
import { allowedMethods, METHOD_HEADER, markMethod, ROUTE_METHODS } from "./methods";
import { cameOverTls, contentSecurityPolicy, PERMISSIONS_POLICY, securityHeaders } from "./security-headers";

/**
 * proxy.ts, the first gate of every request: the security headers on every answer, 405 for a
 * method a path does not answer (TRACE included, marked at the socket), and the table of the
 * route handlers' methods against app/api itself.
 */

type Proxy = typeof import("@/proxy").proxy;
let proxy: Proxy;
beforeAll(async () => {
  process.env.CASHLESS_API_KEY = TEST_API_KEY;
  process.env.SESSION_SECRET = TEST_SESSION_SECRET;
  ({ proxy } = await import("@/proxy"));
});

const at = (path: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  new NextRequest(`http://localhost:3000${path}`, init);

const nonceOf = (csp: string) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];

describe("security headers", () => {
  it("every answer of the gate carries them: redirect, 401, 400, onward, static files", async () => {
    for (const [path, status] of [
      ["/", 307],
      ["/sales", 307],
      ["/api/live/sales", 401],
      ["/api/tickets/%E0", 400],
      ["/tickets/%E0", 400],
      ["/login", 200],
      ["/_next/static/chunks/app.js", 200],
    ] as const) {
      const res = await proxy(at(path));
      expect(res.status, path).toBe(status);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(nonceOf(csp), path).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("permissions-policy")).toBe(PERMISSIONS_POLICY);
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("hands the framework a fresh nonce per request in the request's CSP header", async () => {
    const one = await proxy(at("/login"));
    const two = await proxy(at("/login"));
    const nonce = nonceOf(one.headers.get("content-security-policy")!);
    expect(nonce).not.toBe(nonceOf(two.headers.get("content-security-policy")!));
    // NextResponse.next({ request: { headers } }) passes request headers on as x-middleware-request-*.
    expect(one.headers.get("x-middleware-request-content-security-policy")).toBe(
      one.headers.get("content-security-policy"),
    );
  });

  it("the bad-address page's own style carries the nonce", async () => {
    const res = await proxy(at("/tickets/%E0"));
    const nonce = nonceOf(res.headers.get("content-security-policy")!);
    expect(await res.text()).toContain(`<style nonce="${nonce}">`);
  });

  it("the policy: nonce'd scripts and what they load, the scanner's wasm, nothing from elsewhere, no framing", () => {
    const csp = contentSecurityPolicy("abc");
    expect(csp.split("; ")).toEqual([
      "default-src 'self'",
      "script-src 'self' 'nonce-abc' 'strict-dynamic' 'wasm-unsafe-eval'",
      "style-src 'self' 'nonce-abc'",
      "style-src-attr 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "media-src 'self' blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self' blob:",
      "manifest-src 'self'",
      "object-src 'none'",
      "frame-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ]);
    expect(contentSecurityPolicy("abc", { tls: true })).toMatch(/; upgrade-insecure-requests$/);
    expect(contentSecurityPolicy("abc", { development: true })).toContain("'unsafe-eval'");
    expect(PERMISSIONS_POLICY).toMatch(/^camera=\(self\), microphone=\(\), geolocation=\(\)/);
  });

  it("HSTS only over TLS: the request's own scheme, or a trusted proxy's forwarded protocol", async () => {
    expect(securityHeaders({ tls: true })["strict-transport-security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    const forwarded = new Request("http://10.0.0.2:3000/", { headers: { "x-forwarded-proto": "https" } });
    expect(cameOverTls(forwarded, 1)).toBe(true);
    expect(cameOverTls(forwarded, 0)).toBe(false); // a client's (or the framework's) header, not a proxy's
    expect(cameOverTls(new Request("https://console.example/"), 0)).toBe(true);
    expect(
      cameOverTls(new Request("http://console.example/", { headers: { "x-forwarded-proto": "http" } }), 1),
    ).toBe(false);
    const direct = await proxy(new NextRequest("https://console.example/login"));
    expect(direct.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(direct.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  });
});

describe("methods", () => {
  async function refused(path: string, method: string, marked = false) {
    const res = await proxy(
      marked ? at(path, { headers: { [METHOD_HEADER]: method } }) : at(path, { method }),
    );
    return {
      status: res.status,
      allow: res.headers.get("allow"),
      body: res.status === 405 ? await res.json() : null,
    };
  }

  it("TRACE and other methods the framework cannot handle, marked at the socket, are 405 on any path", async () => {
    for (const path of [
      "/",
      "/login",
      "/sales",
      "/api/live/sales",
      "/api/auth/login",
      "/api/nowhere",
      "/_next/static/x.js",
    ])
      for (const method of ["TRACE", "TRACK", "CONNECT", "PROPFIND", "MKCOL", "SEARCH", "M-SEARCH"]) {
        const answer = await refused(path, method, true);
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.body).toMatchObject({ error: { code: "method_not_allowed" } });
        expect(answer.allow).toBeTruthy();
      }
  });

  it("pages answer GET and HEAD only; a route handler the methods it exports, HEAD and OPTIONS", async () => {
    expect(await refused("/sales", "POST")).toMatchObject({ status: 405, allow: "GET, HEAD" });
    expect(await refused("/login", "DELETE")).toMatchObject({ status: 405, allow: "GET, HEAD" });
    expect(await refused("/", "OPTIONS")).toMatchObject({ status: 405 });
    expect(await refused("/api/alerts", "DELETE")).toMatchObject({
      status: 405,
      allow: "GET, HEAD, OPTIONS",
    });
    expect(await refused("/api/auth/login", "GET")).toMatchObject({ status: 405, allow: "POST, OPTIONS" });
    expect(await refused("/api/terminals/bar-1", "PATCH")).toMatchObject({
      status: 405,
      allow: "GET, PUT, HEAD, OPTIONS",
    });
    // Methods a path answers go on (here to /login or 401 for an anonymous visitor).
    expect((await refused("/api/auth/login", "POST")).status).toBe(200);
    expect((await refused("/api/alerts", "GET")).status).toBe(401);
    expect((await refused("/api/alerts", "HEAD")).status).toBe(401);
    expect((await refused("/login", "HEAD")).status).toBe(200);
    // An /api/ path no handler serves is the framework's 404 (401 here, signed out), whatever the method.
    expect((await refused("/api/nowhere", "DELETE")).status).toBe(401);
    expect(allowedMethods("/api/terminals")).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethods("/api/import/validate")).toEqual(["POST", "OPTIONS"]); // the static one wins over [id]
  });

  it("the socket stamp moves a method the framework cannot handle into the header, and drops a forged one", () => {
    const message = (method: string, headers: Record<string, string> = {}) => {
      const request = new IncomingMessage(new Socket());
      request.method = method;
      request.headers = { ...headers };
      markMethod(request);
      return { method: request.method, marked: request.headers[METHOD_HEADER] };
    };
    expect(message("TRACE")).toEqual({ method: "GET", marked: "TRACE" });
    expect(message("PROPFIND")).toEqual({ method: "GET", marked: "PROPFIND" });
    expect(message("GET", { [METHOD_HEADER]: "TRACE" })).toEqual({ method: "GET", marked: undefined });
    expect(message("POST")).toEqual({ method: "POST", marked: undefined });
  });

  it("the table names exactly the methods each app/api route handler exports", async () => {
    const actual: Record<string, string[]> = {};
    for (const { path, module } of await routeModules())
      actual[path] = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter(
        (m) => typeof module[m as "GET"] === "function",
      );
    expect(actual).toEqual(Object.fromEntries(Object.entries(ROUTE_METHODS).map(([p, m]) => [p, [...m]])));
  });
});
