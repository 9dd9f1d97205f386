import "server-only";
import type { SignInBody } from "@/lib/shared/api/auth";
import { ConsoleError } from "@/lib/shared/api/errors";
import { homeFor } from "@/lib/shared/permissions";
import type { Dashboard } from "../dashboard";
import { deviceTokens, issueDeviceCookie } from "./device-cookie";
import {
  clearSessionCookie,
  endSession,
  endUserSessions,
  type Session,
  type SessionUser,
  startSession,
} from "./session";
import { type CheckOptions, checkCredentials } from "./throttle";

/** Who is asking: the source address (see http/client-address.ts), the browser and its cookies. */
export interface Client {
  address: string | null;
  userAgent: string | null;
  cookieHeader: string | null;
}

const minutesUntil = (until: Date, now: Date) => {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
};

/**
 * Checks the credentials under the sign-in rules (auth/throttle.ts) and starts a server-side
 * session. Answers the body and the cookies to set: the session, and the device cookie that makes
 * this browser trusted for this user next time.
 */
export async function signIn(
  dashboard: Dashboard,
  body: SignInBody,
  client: Client,
  options: Omit<CheckOptions, "now"> = {},
) {
  const now = dashboard.clock();
  const { config, db } = dashboard;
  const tokens = deviceTokens(config.SESSION_SECRET, client.cookieHeader, now);
  const device = tokens.find((t) => t.username === body.username) ?? null;
  const result = await checkCredentials(
    db,
    {
      username: body.username,
      password: body.password,
      address: client.address,
      deviceNonce: device?.nonce ?? null,
    },
    { ...options, now },
  );
  if (!result.ok && result.reason === "locked") {
    const wait = minutesUntil(result.until, now);
    throw new ConsoleError(
      "account_locked",
      result.scope === "address"
        ? `Too many failed sign-ins from this network: sign-in from new browsers is paused for ${wait}. A browser that signed in before still can.`
        : `Too many failed sign-ins for this account: sign-in from new browsers is paused for ${wait}. A browser that signed in to it before still can; a manager can unlock it on the Users screen.`,
    );
  }
  if (!result.ok) throw new ConsoleError("invalid_credentials", "Wrong username or password.");
  const { id, username, role, locale, theme } = result.user;
  const user = { id, username, role, locale, theme } satisfies SessionUser;
  const secure = config.NODE_ENV === "production";
  const cookies = [
    await startSession(db, config, user, client, now),
    issueDeviceCookie(config.SESSION_SECRET, tokens, user.username, now, secure),
  ];
  return {
    answer: { user: { username: user.username, role: user.role }, home: homeFor(user.role) },
    cookies,
  };
}

/** Ends this session (signed in or not, the cookie is cleared); answers the cookies to set. */
export async function signOut(dashboard: Dashboard, session: Session | null) {
  if (session) await endSession(dashboard.db, session);
  return { cookies: [clearSessionCookie(dashboard.config)] };
}

/** "Sign out everywhere": every session of the signed-in user ends, on every instance. */
export async function signOutEverywhere(dashboard: Dashboard, session: Session | null) {
  if (!session) throw new ConsoleError("not_signed_in", "Sign in first.");
  const ended = await endUserSessions(dashboard.db, session.user.id);
  return { answer: { ok: true as const, ended }, cookies: [clearSessionCookie(dashboard.config)] };
}
