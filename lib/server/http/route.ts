import "server-only";
import { randomBytes } from "node:crypto";
import { NextResponse } from "next/server";
import { ConsoleError, errorEnvelope, isConsoleError } from "@/lib/shared/api/errors";
import { can, type Permission } from "@/lib/shared/permissions";
import { type Session, type SessionUser, sessionOfRequest } from "../auth/session";
import type { Client } from "../auth/sign-in";
import { type Dashboard, getDashboard } from "../dashboard";
import { clientAddress, isLoopbackOrIpHost, requestOrigin } from "./client-address";
import { isJsonType } from "./input";

export type { SessionUser };

/**
 * The host a state change names must be the console's: the configured public origin (PUBLIC_URL),
 * or without one `localhost` or an IP literal. A DNS-rebinding page (a foreign domain made to
 * resolve to the console) names its own domain in Host and Origin alike, so only this check
 * refuses it (403 unknown_host).
 */
function assertKnownHost(host: string | null, publicUrl: string | undefined) {
  const known =
    host !== null && (publicUrl ? host.toLowerCase() === new URL(publicUrl).host : isLoopbackOrIpHost(host));
  if (!known)
    throw new ConsoleError(
      "unknown_host",
      publicUrl
        ? `Changes are accepted only at the console's address (${publicUrl}).`
        : "Changes are accepted only at localhost or an IP address unless PUBLIC_URL names the console's address.",
    );
}

/**
 * A state-changing request must come from the console's own pages, at the console's own address:
 * its Host is the console's (see assertKnownHost; the forwarded host and protocol count only behind
 * a trusted proxy, TRUST_PROXY), and its `Origin` names that host (and PUBLIC_URL's scheme), or,
 * without an Origin, the browser says `Sec-Fetch-Site: same-origin`. Anything else is refused, even
 * where SameSite cookies would have saved the day.
 */
export function assertSameOrigin(request: Request, trustProxy = 0, publicUrl?: string) {
  const expected = requestOrigin(request, trustProxy);
  assertKnownHost(expected.host, publicUrl);
  const origin = request.headers.get("origin");
  if (!origin) {
    if (request.headers.get("sec-fetch-site") === "same-origin") return;
    throw new ConsoleError(
      "origin_required",
      "A change must come from the console's own pages (the request has no Origin header).",
    );
  }
  let url: URL | null = null;
  try {
    url = new URL(origin);
  } catch {
    // "null" or garbage: foreign by definition.
  }
  const sameHost = url !== null && expected.host !== null && url.host === expected.host.toLowerCase();
  const sameProto = publicUrl
    ? url?.origin === publicUrl
    : expected.proto === null || url?.protocol === `${expected.proto}:`;
  if (!sameHost || !sameProto)
    throw new ConsoleError("foreign_origin", "Requests from another site are refused.");
}

/** A state change whose body is declared as anything but JSON is refused (415): no form or text posts. */
export function assertJsonBody(request: Request) {
  const type = request.headers.get("content-type");
  if (type !== null && !isJsonType(type))
    throw new ConsoleError(
      "unsupported_media_type",
      "Send the body as JSON (Content-Type: application/json).",
    );
}

/** The one place an error becomes an answer: the envelope, or a 500 with a reference and no detail. */
export function errorResponse(err: unknown): NextResponse {
  if (isConsoleError(err)) {
    const response = NextResponse.json(errorEnvelope(err), { status: err.status });
    if (err.retryAfter !== undefined) response.headers.set("retry-after", String(Math.ceil(err.retryAfter)));
    return response;
  }
  const reference = `dash_${randomBytes(8).toString("hex")}`;
  console.error(`[dashboard] ${reference}`, err);
  return NextResponse.json(
    errorEnvelope(new ConsoleError("internal_error", `Something went wrong (reference ${reference}).`)),
    { status: 500 },
  );
}

const isStateChange = (request: Request) => !["GET", "HEAD", "OPTIONS"].includes(request.method);

/** Who sent the request: its source address, browser and cookies. */
export function clientOf(request: Request, dashboard: Dashboard): Client {
  return {
    address: clientAddress(request, dashboard.config.TRUST_PROXY),
    userAgent: request.headers.get("user-agent"),
    cookieHeader: request.headers.get("cookie"),
  };
}

/** The checks every route handler makes before its own work; answers the process's dashboard. */
async function admit(request: Request): Promise<Dashboard> {
  const dashboard = await getDashboard();
  if (isStateChange(request)) {
    assertSameOrigin(request, dashboard.config.TRUST_PROXY, dashboard.config.PUBLIC_URL);
    assertJsonBody(request);
  }
  return dashboard;
}

type Handler<C> = (ctx: {
  request: Request;
  user: SessionUser;
  session: Session;
  dashboard: Dashboard;
  params: C;
}) => Promise<Response>;

/**
 * Every signed-in route handler goes through here (see `handle`): same-origin and JSON checks for
 * state changes, a live server-side session, the permission from the one table, one error envelope.
 */
export function route<C = Record<string, string>>(permission: Permission | "signed-in", handler: Handler<C>) {
  return async (request: Request, context: { params: Promise<C> }): Promise<Response> => {
    try {
      const dashboard = await admit(request);
      const session = await sessionOfRequest(dashboard.db, dashboard.config, request, dashboard.clock());
      if (!session) throw new ConsoleError("not_signed_in", "Sign in first.");
      // "signed-in": any live session will do (no permission of the table is involved).
      if (permission !== "signed-in" && !can(session.user.role, permission))
        throw new ConsoleError("forbidden", "Your role does not allow this.");
      return await handler({ request, user: session.user, session, dashboard, params: await context.params });
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/** Route handlers reachable without a session (sign-in, sign-out): same checks otherwise. */
export function publicRoute<C = Record<string, string>>(
  handler: (ctx: {
    request: Request;
    dashboard: Dashboard;
    session: Session | null;
    client: Client;
    params: C;
  }) => Promise<Response>,
) {
  return async (request: Request, context?: { params: Promise<C> }): Promise<Response> => {
    try {
      const dashboard = await admit(request);
      const session = await sessionOfRequest(dashboard.db, dashboard.config, request, dashboard.clock());
      const params = ((await context?.params) ?? {}) as C;
      return await handler({ request, dashboard, session, client: clientOf(request, dashboard), params });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
