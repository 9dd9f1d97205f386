import type { Locale } from "@/lib/shared/i18n/locales";
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import type { Queryable } from "@/lib/db/db";
import type { Actor } from "@/lib/shared/permissions";
import type { Theme } from "@/lib/shared/theme";
import type { DashboardConfig } from "../config";
import * as sessions from "../store/sessions";
import { readCookie, setCookie } from "./cookies";
import { SESSION_COOKIE } from "./session-cookie";
import { type WallSeal, wallSessionOf } from "./wall-session";

export { SESSION_COOKIE };

/**
 * Server-side sessions. The cookie is sealed (iron-session: encrypted and signed with
 * SESSION_SECRET) and carries only a random session id; the store holds its SHA-256 and the user.
 * Deleting the row (sign-out, password or role change, "sign out everywhere", removing the user)
 * ends the session at once on every instance that shares the store.
 */

export interface SessionUser {
  id: string;
  username: string;
  /** A user's role, or `wall` for a wall's session (wall-session.ts). */
  role: Actor;
  /** The language the user chose (null: the browser's). */
  locale: Locale | null;
  /** The theme the user chose (null or absent: the system's). */
  theme?: Theme | null;
}

/** The session the request carries: its user, and the id's hash (to end it); a wall's names the wall. */
export interface Session {
  user: SessionUser;
  idHash: string;
  wall?: { id: string; token: string; issuedAt: number };
}

/** Fixed lifetime: a shift plus margin. Never extended. */
export const SESSION_TTL_S = 12 * 60 * 60;

type SessionConfig = Pick<DashboardConfig, "SESSION_SECRET" | "NODE_ENV">;

const hashOf = (id: string) => createHash("sha256").update(id).digest("hex");
const secure = (config: SessionConfig) => config.NODE_ENV === "production";

/** The session of a sealed cookie value, or null (no cookie, a forged or expired seal, an ended session). */
export async function sessionOfSeal(
  db: Queryable,
  config: SessionConfig,
  seal: string | undefined,
  now: Date,
): Promise<Session | null> {
  if (!seal) return null;
  let data: { sid?: unknown } & Partial<WallSeal>;
  try {
    data = await unsealData<{ sid?: unknown } & Partial<WallSeal>>(seal, {
      password: config.SESSION_SECRET,
      ttl: SESSION_TTL_S,
    });
  } catch {
    return null;
  }
  if (data.wall !== undefined) return wallSessionOf(db, data, now);
  const { sid } = data;
  if (typeof sid !== "string" || sid.length < 32) return null;
  const idHash = hashOf(sid);
  const user = await sessions.findSessionUser(db, idHash, now);
  return user
    ? {
        user: {
          id: user.id,
          username: user.username,
          role: user.role,
          locale: user.locale,
          theme: user.theme,
        },
        idHash,
      }
    : null;
}

/** The session of a request (route handlers read the Cookie header; no framework context needed). */
export function sessionOfRequest(
  db: Queryable,
  config: SessionConfig,
  request: Request,
  now: Date,
): Promise<Session | null> {
  return sessionOfSeal(db, config, readCookie(request.headers.get("cookie"), SESSION_COOKIE), now);
}

/** Stores a new session for a user who just proved who they are; answers its Set-Cookie. */
export async function startSession(
  db: Queryable,
  config: SessionConfig,
  user: SessionUser,
  meta: { address: string | null; userAgent: string | null },
  now: Date,
): Promise<string> {
  const sid = randomBytes(32).toString("base64url");
  await sessions.pruneExpiredSessions(db, now);
  await sessions.insertSession(db, {
    idHash: hashOf(sid),
    userId: user.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_S * 1000),
    address: meta.address,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  const seal = await sealData({ sid }, { password: config.SESSION_SECRET, ttl: SESSION_TTL_S });
  return setCookie(SESSION_COOKIE, seal, {
    maxAge: SESSION_TTL_S - 60,
    sameSite: "Lax",
    secure: secure(config),
  });
}

/** The Set-Cookie that removes the session cookie from the browser. */
export function clearSessionCookie(config: SessionConfig): string {
  return setCookie(SESSION_COOKIE, "", { maxAge: 0, sameSite: "Lax", secure: secure(config) });
}

/** Ends one session (sign-out). */
export function endSession(db: Queryable, session: Session): Promise<void> {
  return sessions.deleteSession(db, session.idHash);
}

/** Ends every session of a user (sign out everywhere, a password or role change); answers how many. */
export function endUserSessions(db: Queryable, userId: string): Promise<number> {
  return sessions.deleteUserSessions(db, userId);
}
