import "server-only";
import type { IncomingMessage } from "node:http";

/**
 * Which HTTP methods the console answers where, so that every other one is `405
 * method_not_allowed` in the console's error envelope (with `Allow`), decided in proxy.ts before
 * the framework sees the request: pages and static files take GET and HEAD; each route handler
 * the methods its module exports (the table below, checked against app/api by a test), HEAD
 * where it has GET, and OPTIONS.
 */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The route handlers' methods, by path pattern (`[name]` is one path segment). */
export const ROUTE_METHODS: Record<string, readonly Method[]> = {
  "/api/alerts": ["GET"],
  "/api/alerts/[id]/acknowledge": ["POST"],
  "/api/alerts/count": ["GET"],
  "/api/audit": ["GET"],
  "/api/auth/locale": ["POST"],
  "/api/auth/login": ["POST"],
  "/api/auth/logout": ["POST"],
  "/api/auth/logout-everywhere": ["POST"],
  "/api/connection": ["GET"],
  "/api/desk/quote": ["GET"],
  "/api/desk/topups": ["POST"],
  "/api/desk/withdrawals": ["POST"],
  "/api/import": ["GET", "POST"],
  "/api/import/[id]": ["GET", "POST"],
  "/api/import/validate": ["POST"],
  "/api/live/overview": ["GET"],
  "/api/live/sales": ["GET"],
  "/api/live/sales/export": ["GET"],
  "/api/live/scans": ["GET"],
  "/api/live/topups": ["GET"],
  "/api/live/topups/export": ["GET"],
  "/api/reconciliation": ["GET"],
  "/api/reconciliation/draft": ["POST"],
  "/api/reconciliation/export": ["GET"],
  "/api/reconciliation/floats": ["POST"],
  "/api/reconciliation/resync": ["POST"],
  "/api/reconciliation/signoff": ["POST"],
  "/api/reconciliation/signoffs/[id]/approve": ["POST"],
  "/api/reconciliation/signoffs/[id]/pdf": ["GET"],
  "/api/reconciliation/waivers": ["POST"],
  "/api/review": ["GET"],
  "/api/review/[code]/keep": ["POST"],
  "/api/staff/search": ["GET"],
  "/api/terminals": ["GET"],
  "/api/terminals/[device]": ["GET", "PUT"],
  "/api/tickets": ["GET"],
  "/api/tickets/[code]": ["GET"],
  "/api/tickets/[code]/cancel": ["POST"],
  "/api/tickets/[code]/check-in": ["POST"],
  "/api/users": ["GET"],
  "/api/users/[username]/role": ["POST"],
  "/api/users/[username]/sign-out": ["POST"],
  "/api/users/[username]/unlock": ["POST"],
  "/api/wristbands/[code]": ["GET"],
  "/api/wristbands/[code]/sales": ["GET"],
};

const routes = Object.entries(ROUTE_METHODS).map(([pattern, methods]) => ({
  pattern: new RegExp(`^${pattern.replace(/\[\w+\]/g, "[^/]+")}/?$`),
  static: !pattern.includes("["),
  methods,
}));

/**
 * The methods a path answers, or null for an /api/ path no handler serves (the framework's 404
 * answers it, whatever the method). Static paths win over dynamic ones, as in the framework.
 */
export function allowedMethods(pathname: string): string[] | null {
  if (!pathname.startsWith("/api/")) return ["GET", "HEAD"];
  const found =
    routes.find((r) => r.static && r.pattern.test(pathname)) ?? routes.find((r) => r.pattern.test(pathname));
  if (!found) return null;
  return [...found.methods, ...(found.methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
}

/**
 * A method the framework cannot even represent (TRACE, CONNECT, TRACK: a `Request` refuses them)
 * or does not know (PROPFIND, and the rest of WebDAV's) reaches proxy.ts as a GET naming the real
 * method in this header, which the console's own request stamp writes (see markMethod).
 */
export const METHOD_HEADER = "x-eoc-method";

/** The methods the framework handles (an /api/ path no handler serves answers 404 to each). */
export const FRAMEWORK_METHODS: readonly string[] = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
];

/**
 * Called for every incoming request before the framework reads it (the stamp of
 * http/client-address.ts): a method outside the framework's set is moved into METHOD_HEADER and
 * the request goes on as a GET, so that proxy.ts answers 405 instead of the framework failing with
 * a 500; whatever a client sent under that header is dropped.
 */
export function markMethod(request: IncomingMessage): void {
  delete request.headers[METHOD_HEADER];
  const method = request.method ?? "GET";
  if (FRAMEWORK_METHODS.includes(method)) return;
  request.headers[METHOD_HEADER] = method;
  request.method = "GET";
}

/** The method the client really sent: the marked one, else the request's. */
export function sentMethod(request: Request): string {
  return request.headers.get(METHOD_HEADER) ?? request.method;
}
