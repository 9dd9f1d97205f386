import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { sealData } from "iron-session";
import type { Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { DashboardConfig } from "../config";
import { findLiveWall, touchWall } from "../store/walls";
import { setCookie } from "./cookies";
import type { Session } from "./session";
import { SESSION_COOKIE } from "./session-cookie";

/**
 * A wall's session: a TV that shows the right-now figures for days with nobody at it. A manager
 * issues a wall token (only its SHA-256 is stored); opening the wall's link once seals the token into
 * the browser's session cookie (iron-session, the same cookie as a user's). Every request checks the
 * token's hash against the store, so revoking the wall ends its session at once on every instance.
 * The cookie lives 30 days and is renewed while the wall is on screen (wall.session, every poll), so
 * a wall never expires while its token is valid. Its role, `wall`, may read what the wall shows only.
 */

/** What the sealed cookie of a wall carries: its token and when it was sealed (ms). */
export interface WallSeal {
  wall: string;
  iat: number;
}

export const WALL_TTL_S = 30 * 24 * 60 * 60;
/** A wall's cookie sealed longer ago than this is sealed again (renewed) on its next poll. */
export const WALL_RENEW_AFTER_S = 24 * 60 * 60;

type SessionConfig = Pick<DashboardConfig, "SESSION_SECRET" | "NODE_ENV">;

export const newWallToken = () => randomBytes(32).toString("base64url");
export const wallTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** The session of an unsealed wall cookie: the wall, unless revoked or its seal is older than 30 days. */
export async function wallSessionOf(
  db: Queryable,
  data: Partial<WallSeal>,
  now: Date,
): Promise<Session | null> {
  const { wall: token, iat } = data;
  if (typeof token !== "string" || token.length < 32 || typeof iat !== "number") return null;
  if (iat + WALL_TTL_S * 1000 <= now.getTime()) return null;
  const idHash = wallTokenHash(token);
  const wall = await findLiveWall(db, idHash);
  if (!wall) return null;
  return {
    user: { id: `wall:${wall.id}`, username: wall.name, role: "wall", locale: null, theme: "dark" },
    idHash,
    wall: { id: wall.id, token, issuedAt: iat },
  };
}

/** The Set-Cookie of a wall's session, sealed now. */
export async function wallCookie(config: SessionConfig, token: string, now: Date): Promise<string> {
  const seal = await sealData({ wall: token, iat: now.getTime() } satisfies WallSeal, {
    password: config.SESSION_SECRET,
    ttl: WALL_TTL_S,
  });
  return setCookie(SESSION_COOKIE, seal, {
    maxAge: WALL_TTL_S - 60,
    sameSite: "Lax",
    secure: config.NODE_ENV === "production",
  });
}

/** Opening a wall's link: the token becomes this browser's wall session (a user's session ends here). */
export async function connectWall(
  db: Queryable,
  config: SessionConfig,
  token: string,
  now: Date,
): Promise<{ answer: { name: string }; cookies: string[] }> {
  const wall = await findLiveWall(db, wallTokenHash(token));
  if (!wall)
    throw new ConsoleError(
      "not_signed_in",
      "This wall link is not valid (revoked, or copied incompletely): ask a manager for a new one.",
    );
  await touchWall(db, wall.id, now);
  return { answer: { name: wall.name }, cookies: [await wallCookie(config, token, now)] };
}

/**
 * A wall's poll: notes it is on screen and renews its cookie once a day. Anyone else who may look at
 * the wall (a manager) gets no name and no cookie.
 */
export async function wallHeartbeat(
  db: Queryable,
  config: SessionConfig,
  session: Session,
  now: Date,
): Promise<{ answer: { wall: string | null; renewed: boolean; now: string }; cookies: string[] }> {
  const wall = session.wall;
  if (!wall) return { answer: { wall: null, renewed: false, now: now.toISOString() }, cookies: [] };
  await touchWall(db, wall.id, now);
  const renew = now.getTime() - wall.issuedAt >= WALL_RENEW_AFTER_S * 1000;
  return {
    answer: { wall: session.user.username, renewed: renew, now: now.toISOString() },
    cookies: renew ? [await wallCookie(config, wall.token, now)] : [],
  };
}
