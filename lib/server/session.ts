import "server-only";
import { getIronSession, type SessionOptions } from "iron-session";
import { cookies } from "next/headers";
import type { Role } from "@/lib/permissions";

export interface SessionData {
  userId?: string;
  username?: string;
  role?: Role;
}

import { SESSION_COOKIE } from "./session-cookie";

export { SESSION_COOKIE };
/** Fixed lifetime: a shift plus margin. The cookie is never extended. */
export const SESSION_TTL_S = 12 * 60 * 60;

export function sessionOptions(secret: string, production: boolean): SessionOptions {
  return {
    password: secret,
    cookieName: SESSION_COOKIE,
    ttl: SESSION_TTL_S,
    cookieOptions: { httpOnly: true, sameSite: "lax", secure: production, path: "/" },
  };
}

export async function readSession(secret: string, production: boolean) {
  return getIronSession<SessionData>(await cookies(), sessionOptions(secret, production));
}
