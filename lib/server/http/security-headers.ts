import "server-only";
import { randomBytes } from "node:crypto";

/**
 * The security headers of every answer of the console, pages and route handlers alike, set in one
 * place (proxy.ts). The Content-Security-Policy carries a fresh nonce per request: Next.js reads it
 * from the request's own CSP header and puts it on every script it renders (pages render
 * dynamically, so each gets its own), and `'strict-dynamic'` lets the scripts so trusted load the
 * rest of the bundle. What the console needs beyond that: `'wasm-unsafe-eval'` for the scanner's
 * ZXing WebAssembly (compiled from the console's own /_next/static/media), inline `style`
 * attributes (charts and progress bars size themselves with them; `<style>` elements still need the
 * nonce), images and media from blob: and data: (camera frames, chart exports). Nothing is
 * loaded from another origin, and no page may be framed.
 */

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

export interface PolicyOptions {
  /** `next dev` (React's dev build evaluates code; the dev server's reloads use a websocket). */
  development?: boolean;
  /** The request came over TLS (directly, or through a trusted proxy): upgrade, and HSTS. */
  tls?: boolean;
}

export function contentSecurityPolicy(nonce: string, options: PolicyOptions = {}): string {
  const dev = options.development === true;
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    [
      "script-src",
      "'self'",
      `'nonce-${nonce}'`,
      "'strict-dynamic'",
      "'wasm-unsafe-eval'",
      ...(dev ? ["'unsafe-eval'"] : []),
    ],
    ["style-src", "'self'", `'nonce-${nonce}'`],
    ["style-src-attr", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:"],
    ["media-src", "'self'", "blob:"],
    ["font-src", "'self'", "data:"],
    ["connect-src", "'self'", ...(dev ? ["ws:", "wss:"] : [])],
    ["worker-src", "'self'", "blob:"],
    ["manifest-src", "'self'"],
    ["object-src", "'none'"],
    ["frame-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
  ];
  if (options.tls) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}

/** Powerful features: the camera for the scanner on the console's own pages, everything else off. */
export const PERMISSIONS_POLICY = [
  "camera=(self)",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "hid=()",
  "midi=()",
  "magnetometer=()",
  "gyroscope=()",
  "accelerometer=()",
  "display-capture=()",
  "screen-wake-lock=()",
  "idle-detection=()",
  "publickey-credentials-get=()",
  "xr-spatial-tracking=()",
  "browsing-topics=()",
].join(", ");

/** Every header but the CSP, for every answer. */
export function securityHeaders(options: PolicyOptions = {}): Record<string, string> {
  return {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": PERMISSIONS_POLICY,
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    // HSTS only where the browser reached the console over TLS: over plain HTTP it means nothing,
    // and on http://localhost it would outlive the sandbox.
    ...(options.tls ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/**
 * Whether the browser reached the console over TLS: the request's own scheme, or behind a trusted
 * proxy (TRUST_PROXY) the protocol it forwarded. The framework fills X-Forwarded-Proto itself
 * when a client sent none, so without a trusted proxy it is never believed.
 */
export function cameOverTls(request: Request, trustProxy: number): boolean {
  if (trustProxy > 0) {
    const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    if (forwarded) return forwarded === "https";
  }
  return new URL(request.url).protocol === "https:";
}
