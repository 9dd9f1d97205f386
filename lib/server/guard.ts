import "server-only";
import { randomBytes } from "node:crypto";
import { NextResponse } from "next/server";
import { can, type Permission, type Role } from "@/lib/permissions";
import { type Dashboard, getDashboard } from "./dashboard";
import { readSession } from "./session";
import { findUser } from "./users";

/** The dashboard's one error: a status, a stable code, a message, and the upstream request id if any. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

export interface SessionUser {
  id: string;
  username: string;
  role: Role;
}

/** The signed-in user, re-read from the store so a removed user or changed role counts at once. */
export async function currentUser(dashboard: Dashboard): Promise<SessionUser | null> {
  const session = await readSession(
    dashboard.config.SESSION_SECRET,
    dashboard.config.NODE_ENV === "production",
  );
  if (!session.userId) return null;
  const user = await findUser(dashboard.db, session.userId);
  return user ? { id: user.id, username: user.username, role: user.role } : null;
}

/** A state-changing request from another site is refused: the Origin must be this host. */
export function assertSameOrigin(request: Request) {
  const origin = request.headers.get("origin");
  if (!origin) return;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    // "null" or garbage: foreign by definition.
  }
  if (!host || originHost !== host)
    throw new HttpError(403, "foreign_origin", "Requests from another site are refused.");
}

export function errorResponse(err: unknown): NextResponse {
  if (err instanceof HttpError) {
    return NextResponse.json(
      {
        error: {
          code: err.code,
          message: err.message,
          ...(err.requestId ? { request_id: err.requestId } : {}),
        },
      },
      { status: err.status },
    );
  }
  // Unexpected: logged under a reference, answered without details.
  const reference = `dash_${randomBytes(8).toString("hex")}`;
  console.error(`[dashboard] ${reference}`, err);
  return NextResponse.json(
    { error: { code: "internal_error", message: `Something went wrong (reference ${reference}).` } },
    { status: 500 },
  );
}

type Handler<C> = (ctx: {
  request: Request;
  user: SessionUser;
  dashboard: Dashboard;
  params: C;
}) => Promise<Response>;

/**
 * Every route handler goes through here: same-origin check for state changes, a session, the
 * permission from the one table, and one error envelope.
 */
export function route<C = Record<string, string>>(permission: Permission, handler: Handler<C>) {
  return async (request: Request, context: { params: Promise<C> }): Promise<Response> => {
    try {
      if (!["GET", "HEAD", "OPTIONS"].includes(request.method)) assertSameOrigin(request);
      const dashboard = await getDashboard();
      const user = await currentUser(dashboard);
      if (!user) throw new HttpError(401, "not_signed_in", "Sign in first.");
      if (!can(user.role, permission))
        throw new HttpError(403, "forbidden", "Your role does not allow this.");
      return await handler({ request, user, dashboard, params: await context.params });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
