import "server-only";
import type { Queryable } from "@/lib/db/db";
import {
  clearAttempts,
  countAttempt,
  pruneSignInRecords,
  recordSignInFailure,
  type ThrottleCount,
  type ThrottleKey,
  uncountAttempt,
} from "../store/sign-in-throttle";
import { findUserWithHash, type User } from "../store/users";
import { DUMMY_HASH, verifyPassword } from "./passwords";

/**
 * The sign-in rules. Every attempt is counted in the store before its password is evaluated (one
 * statement, so parallel attempts count), and the count decides:
 *
 * - From a browser that has not signed this user in before: per account name (known or not: an
 *   unknown name answers exactly like a known one) and per source address. The 3rd and 4th failure
 *   of an account are answered 1 s and 2 s late; the 5th locks the name for new browsers for
 *   15 minutes (nothing more is evaluated). An address is slowed from its 10th failure and locked
 *   at its 50th (a venue's staff may share one address).
 * - From a trusted browser (a device cookie of this user, see device-cookie.ts): per device only;
 *   failures from elsewhere never lock it out. Five failures withdraw the device's trust for
 *   15 minutes (it then counts as a new browser).
 */
export const SIGN_IN_RULES = {
  windowMinutes: 15,
  accountLockAfter: 5,
  deviceLockAfter: 5,
  slowAfter: 3,
  addressSlowAfter: 10,
  addressLockAfter: 50,
  maxDelayMs: 4000,
} as const;

export type CredentialCheck =
  | { ok: true; user: User; trusted: boolean }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; scope: "account" | "address"; until: Date };

export interface Attempt {
  username: string;
  password: string;
  address: string | null;
  /** The nonce of this browser's device token for this username, when it has one. */
  deviceNonce: string | null;
}

export interface CheckOptions {
  /** The instant of the attempt (the dashboard's clock). */
  now: Date;
  delay?: (ms: number) => Promise<void>;
  /** The password check (tests count evaluations through it). */
  verify?: (password: string, hash: string) => Promise<boolean>;
}

const R = SIGN_IN_RULES;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The throttle key of an account name (an unlock clears it). */
export const accountThrottleKey = (name: string) => `account:${name}`;
const accountKey = (name: string): ThrottleKey => ({
  key: accountThrottleKey(name),
  lockAfter: R.accountLockAfter,
});
const addressKey = (address: string | null): ThrottleKey => ({
  key: `address:${address ?? "unknown"}`,
  lockAfter: R.addressLockAfter,
});
const deviceKey = (nonce: string): ThrottleKey => ({ key: `device:${nonce}`, lockAfter: R.deviceLockAfter });

/** How late a failure is answered, from the counts of this attempt. */
export function slowDownMs(counts: ThrottleCount[]): number {
  let ms = 0;
  for (const c of counts) {
    if (c.key.startsWith("address:")) {
      if (c.attempts >= R.addressSlowAfter) ms = Math.max(ms, 250 * (c.attempts - R.addressSlowAfter + 1));
    } else if (c.attempts >= R.slowAfter && c.attempts < c.lock_after) {
      ms = Math.max(ms, 1000 * 2 ** (c.attempts - R.slowAfter));
    }
  }
  return Math.min(ms, R.maxDelayMs);
}

const scopeOf = (c: ThrottleCount): "account" | "address" =>
  c.key.startsWith("address:") ? "address" : "account";

/** The lock the counts show (the longest, when several): device counts never lock, they lose trust. */
function lockedBy(counts: ThrottleCount[], reached: (c: ThrottleCount) => boolean): CredentialCheck | null {
  const hit = counts.filter((c) => !c.key.startsWith("device:") && reached(c));
  if (!hit.length) return null;
  const worst = hit.reduce((a, b) => (Date.parse(a.window_ends_at) >= Date.parse(b.window_ends_at) ? a : b));
  return { ok: false, reason: "locked", scope: scopeOf(worst), until: new Date(worst.window_ends_at) };
}

/**
 * Checks a sign-in attempt under the rules above. The password is evaluated (scrypt, against a
 * dummy hash for an unknown name) only when the attempt's own count allows it.
 */
export async function checkCredentials(
  db: Queryable,
  attempt: Attempt,
  options: CheckOptions,
): Promise<CredentialCheck> {
  const { now } = options;
  const verify = options.verify ?? verifyPassword;
  const name = attempt.username;
  const windowS = R.windowMinutes * 60;
  let trusted = attempt.deviceNonce !== null;
  let counts = await countAttempt(db, trusted ? [deviceKey(attempt.deviceNonce!)] : [], now, windowS);
  if (trusted && counts[0]!.attempts > counts[0]!.lock_after) trusted = false;
  if (!trusted)
    counts = await countAttempt(db, [accountKey(name), addressKey(attempt.address)], now, windowS);

  const refused = trusted ? null : lockedBy(counts, (c) => c.attempts > c.lock_after);
  const failure = { at: now, address: attempt.address, trustedDevice: trusted };
  const row = await findUserWithHash(db, name);
  if (refused) {
    await recordSignInFailure(db, { ...failure, username: row ? name : null, outcome: "locked" });
    return refused;
  }

  const matches = await verify(attempt.password, row?.password_hash ?? DUMMY_HASH);
  if (row && matches) {
    await clearAttempts(db, [trusted ? deviceKey(attempt.deviceNonce!).key : accountKey(name).key]);
    if (!trusted) await uncountAttempt(db, addressKey(attempt.address).key);
    await pruneSignInRecords(db, new Date(now.getTime() - 7 * 24 * 3600_000));
    const { password_hash: _, ...user } = row;
    return { ok: true, user, trusted };
  }
  await recordSignInFailure(db, { ...failure, username: row ? name : null, outcome: "wrong_password" });
  const locked = trusted ? null : lockedBy(counts, (c) => c.attempts >= c.lock_after);
  if (locked) return locked;
  const wait = slowDownMs(counts);
  if (wait > 0) await (options.delay ?? sleep)(wait);
  return { ok: false, reason: "invalid" };
}
