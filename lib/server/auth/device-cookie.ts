import "server-only";
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { readCookie, setCookie } from "./cookies";

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): after a
 * successful sign-in the browser gets a signed token naming the user. A later sign-in of that user
 * from that browser is a "trusted device" attempt: it is counted against the token alone, so
 * failures from anywhere else (an attacker locking the account) never refuse it. Tokens are HMACs
 * with a key derived from SESSION_SECRET; one browser keeps the tokens of its last few users
 * (a shared desk laptop).
 */

export const DEVICE_COOKIE = "eoc_device";
/** How long a browser stays trusted after its last successful sign-in. */
export const DEVICE_TTL_S = 180 * 24 * 60 * 60;
/** Users remembered per browser. */
const MAX_TOKENS = 4;

export interface DeviceToken {
  username: string;
  /** Random per token: the device's throttle key (`device:<nonce>`). */
  nonce: string;
  issuedAt: number;
}

const keys = new Map<string, Buffer>();
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "eoc", "device-cookie v1", 32));
    keys.set(secret, key);
  }
  return key;
}

const mac = (secret: string, payload: string) =>
  createHmac("sha256", keyOf(secret)).update(payload).digest("base64url");

function encode(secret: string, token: DeviceToken): string {
  const payload = Buffer.from(JSON.stringify([token.username, token.nonce, token.issuedAt])).toString(
    "base64url",
  );
  return `${payload}.${mac(secret, payload)}`;
}

function decode(secret: string, text: string, now: Date): DeviceToken | null {
  const [payload, signature, extra] = text.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const [username, nonce, issuedAt] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (typeof username !== "string" || typeof nonce !== "string" || typeof issuedAt !== "number")
      return null;
    if (issuedAt * 1000 + DEVICE_TTL_S * 1000 <= now.getTime()) return null;
    return { username, nonce, issuedAt };
  } catch {
    return null;
  }
}

/** The valid tokens of a request's device cookie. */
export function deviceTokens(secret: string, cookieHeader: string | null, now: Date): DeviceToken[] {
  const value = readCookie(cookieHeader, DEVICE_COOKIE);
  if (!value) return [];
  return value
    .split("~")
    .slice(0, MAX_TOKENS)
    .map((t) => decode(secret, t, now))
    .filter((t): t is DeviceToken => t !== null);
}

/** The Set-Cookie of a browser that just signed `username` in: a fresh token first, older ones kept. */
export function issueDeviceCookie(
  secret: string,
  previous: DeviceToken[],
  username: string,
  now: Date,
  secure: boolean,
): string {
  const fresh: DeviceToken = {
    username,
    nonce: randomBytes(16).toString("base64url"),
    issuedAt: Math.floor(now.getTime() / 1000),
  };
  const kept = previous.filter((t) => t.username !== username).slice(0, MAX_TOKENS - 1);
  const value = [fresh, ...kept].map((t) => encode(secret, t)).join("~");
  // Only the sign-in route ever needs it.
  return setCookie(DEVICE_COOKIE, value, {
    maxAge: DEVICE_TTL_S,
    path: "/api/auth",
    sameSite: "Strict",
    secure,
  });
}
