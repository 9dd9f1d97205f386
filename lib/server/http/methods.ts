import "server-only";
import type { IncomingMessage } from "node:http";
import { allEndpoints } from "@/lib/shared/api/endpoints";

/**
 * Which HTTP methods the console answers where, so that every other one is `405
 * method_not_allowed` in the console's error envelope (with `Allow`), decided in proxy.ts before
 * the framework sees the request: pages and static files take GET and HEAD; each route handler
 * the methods its module exports (the table below, from the declarations), HEAD
 * where it has GET, and OPTIONS.
 */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The route handlers' methods, by path pattern (`[name]` is one path segment), from the endpoint
 * declarations: a test checks each route file exports exactly its declared methods.
 */
export const ROUTE_METHODS: Record<string, readonly Method[]> = {};
for (const e of allEndpoints) {
  const pattern = e.path.replace(/\{(\w+)\}/g, "[$1]");
  ROUTE_METHODS[pattern] = [...(ROUTE_METHODS[pattern] ?? []), e.method];
}

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
