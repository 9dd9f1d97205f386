import { unsealData } from "iron-session";
import { type NextRequest, NextResponse } from "next/server";
import { SESSION_COOKIE } from "@/lib/server/auth/session-cookie";
import { dashboardConfig } from "@/lib/server/config";
import { badAddressPage } from "@/lib/server/http/bad-address";
import { allowedMethods, FRAMEWORK_METHODS, sentMethod } from "@/lib/server/http/methods";
import {
  cameOverTls,
  contentSecurityPolicy,
  newNonce,
  type PolicyOptions,
  securityHeaders,
} from "@/lib/server/http/security-headers";
import { ConsoleError, errorEnvelope } from "@/lib/shared/api/errors";

// The language switcher works before sign-in too: the choice is then kept in the browser's cookie.
const PUBLIC = [
  "/login",
  "/api/auth/login",
  "/api/auth/logout",
  "/api/auth/locale",
  // A wall's link: the page reads the token from its #fragment and trades it for a wall session.
  "/wall/connect",
  "/api/wall/connect",
  "/favicon.ico",
  "/robots.txt",
];

/** Whether every percent-escape of the path decodes (`/tickets/%E0` does not). */
function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const envelope = (error: ConsoleError, headers: Record<string, string> = {}) =>
  NextResponse.json(errorEnvelope(error), { status: error.status, headers });

/** A method this path does not answer (TRACE on any path, POST on a page…): 405 with `Allow`. */
function refusedMethod(request: NextRequest): NextResponse | null {
  const method = sentMethod(request);
  const allowed = allowedMethods(request.nextUrl.pathname);
  if ((allowed ?? FRAMEWORK_METHODS).includes(method)) return null;
  const error = new ConsoleError("method_not_allowed", `${method.slice(0, 20)} is not accepted here.`);
  return envelope(error, { allow: (allowed ?? ["GET", "HEAD"]).join(", ") });
}

async function signedIn(request: NextRequest): Promise<boolean> {
  const seal = request.cookies.get(SESSION_COOKIE)?.value;
  if (!seal) return false;
  try {
    const data = await unsealData<{ sid?: string; wall?: string }>(seal, {
      password: dashboardConfig().SESSION_SECRET,
    });
    // A user's session (sid) or a wall's (wall): the page or handler checks it in the store.
    return typeof data.sid === "string" || typeof data.wall === "string";
  } catch {
    return false;
  }
}

/**
 * What the request gets before its page or handler: a refusal, a redirect to /login, or on its way
 * (with `forward`, the request headers that carry the CSP to the framework).
 */
async function gate(request: NextRequest, nonce: string, forward: Headers): Promise<NextResponse> {
  const refused = refusedMethod(request);
  if (refused) return refused;
  const { pathname, search } = request.nextUrl;
  if (!decodablePath(pathname)) {
    const error = new ConsoleError(
      "invalid_path",
      "This address is malformed (a broken %-escape): check the link.",
    );
    return pathname.startsWith("/api/")
      ? envelope(error)
      : new NextResponse(badAddressPage(error.message, nonce), {
          status: error.status,
          headers: { "content-type": "text/html; charset=utf-8" },
        });
  }
  const onward = () => NextResponse.next({ request: { headers: forward } });
  if (pathname.startsWith("/_next/") || PUBLIC.some((p) => pathname === p)) return onward();
  if (await signedIn(request)) return onward();
  if (pathname.startsWith("/api/")) return envelope(new ConsoleError("not_signed_in", "Sign in first."));
  const login = new URL("/login", request.url);
  if (pathname !== "/") login.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

/**
 * The first gate of every request, and the one place the security headers are set (pages, route
 * handlers, static files and the gate's own answers). A method the path does not answer is 405; a
 * path whose percent-encoding is malformed is answered 400 here (JSON for route handlers, an error
 * page for pages), before the framework fails decoding it with a plain-text 500. Anonymous visitors
 * are sent to /login (pages) or answered 401 (route handlers). Only a first gate: every page and
 * route handler checks the session in the store and its permission itself.
 */
export async function proxy(request: NextRequest) {
  const config = dashboardConfig();
  const options: PolicyOptions = {
    development: process.env.NODE_ENV === "development",
    tls: cameOverTls(request, config.TRUST_PROXY),
  };
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, options);
  // Next.js takes the nonce for its own scripts from the request's CSP header.
  const forward = new Headers(request.headers);
  forward.set("content-security-policy", csp);
  const response = await gate(request, nonce, forward);
  response.headers.set("content-security-policy", csp);
  for (const [name, value] of Object.entries(securityHeaders(options))) response.headers.set(name, value);
  return response;
}

export const config = {
  // Every path, static files included: each answer carries the security headers.
  matcher: ["/:path*"],
};
