import "server-only";
import type { Queryable } from "@/lib/db/db";

/** One counted subject of a sign-in attempt: `account:<name>`, `address:<ip>` or `device:<nonce>`. */
export interface ThrottleKey {
  key: string;
  /** Attempts in a window after which the subject is locked for `windowSeconds`. */
  lockAfter: number;
}

export interface ThrottleCount {
  key: string;
  /** This attempt's number in the window (1 = the first). */
  attempts: number;
  lock_after: number;
  window_ends_at: string;
}

/**
 * Counts one attempt for every key, in ONE statement, before the password is evaluated: parallel
 * attempts each get their own number (the row lock of ON CONFLICT DO UPDATE serialises them), so
 * "more than lock_after" is exact under any concurrency. A window that has ended starts over; the
 * attempt that reaches `lock_after` moves the window's end to now + windowSeconds (the lock).
 * Keys are taken in sorted order so that two statements never wait on each other's rows.
 */
export async function countAttempt(
  db: Queryable,
  keys: ThrottleKey[],
  now: Date,
  windowSeconds: number,
): Promise<ThrottleCount[]> {
  const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return db.query<ThrottleCount>(
    `insert into sign_in_throttle as t (key, attempts, lock_after, window_ends_at, last_attempt_at)
     select k.key, 1, k.lock_after, $3::timestamptz + make_interval(secs => $4), $3::timestamptz
       from unnest($1::text[], $2::int[]) as k(key, lock_after)
     on conflict (key) do update set
       attempts = case when t.window_ends_at <= excluded.last_attempt_at then 1 else t.attempts + 1 end,
       window_ends_at = case
         when t.window_ends_at <= excluded.last_attempt_at then excluded.window_ends_at
         when t.attempts + 1 = excluded.lock_after then excluded.window_ends_at
         else t.window_ends_at end,
       lock_after = excluded.lock_after,
       last_attempt_at = excluded.last_attempt_at
     returning key, attempts, lock_after, window_ends_at`,
    [sorted.map((k) => k.key), sorted.map((k) => k.lockAfter), now, windowSeconds],
  );
}

/** Forgets the counts of these keys (a success, an unlock). */
export async function clearAttempts(db: Queryable, keys: string[]): Promise<void> {
  await db.query("delete from sign_in_throttle where key = any($1::text[])", [keys]);
}

/** Takes back one counted attempt (a success from an address does not clear the address's failures). */
export async function uncountAttempt(db: Queryable, key: string): Promise<void> {
  await db.query("update sign_in_throttle set attempts = greatest(attempts - 1, 0) where key = $1", [key]);
}

/** Keys that are locked now (attempts at or over their limit in a window that has not ended). */
export async function lockedKeys(
  db: Queryable,
  keys: string[],
  now: Date,
): Promise<{ key: string; window_ends_at: string; attempts: number }[]> {
  return db.query(
    `select key, window_ends_at, attempts from sign_in_throttle
      where key = any($1::text[]) and attempts >= lock_after and window_ends_at > $2`,
    [keys, now],
  );
}

export async function recordSignInFailure(
  db: Queryable,
  failure: {
    at: Date;
    username: string | null;
    address: string | null;
    trustedDevice: boolean;
    outcome: "wrong_password" | "locked";
  },
): Promise<void> {
  await db.query(
    `insert into sign_in_failures (at, username, address, trusted_device, outcome) values ($1, $2, $3, $4, $5)`,
    [failure.at, failure.username, failure.address, failure.trustedDevice, failure.outcome],
  );
}

export interface SignInFailureRow {
  id: string;
  at: string;
  username: string | null;
  address: string | null;
  trusted_device: boolean;
  outcome: "wrong_password" | "locked";
}

/** The latest failures of known accounts, newest first. */
export function recentSignInFailures(db: Queryable, limit: number): Promise<SignInFailureRow[]> {
  return db.query<SignInFailureRow>(
    `select id::text as id, at, username, address, trusted_device, outcome from sign_in_failures
      where username is not null order by id desc limit $1`,
    [limit],
  );
}

/** Failures per account since `since`, and how many named no known account. */
export async function failureCounts(
  db: Queryable,
  since: Date,
): Promise<{ byUser: Map<string, number>; unknown: number }> {
  const rows = await db.query<{ username: string | null; n: number }>(
    `select username, count(*)::int as n from sign_in_failures where at >= $1 group by username`,
    [since],
  );
  return {
    byUser: new Map(rows.filter((r) => r.username !== null).map((r) => [r.username!, r.n])),
    unknown: rows.find((r) => r.username === null)?.n ?? 0,
  };
}

/** Drops failures older than `before` and throttle rows whose window ended before it. */
export async function pruneSignInRecords(db: Queryable, before: Date): Promise<void> {
  await db.query("delete from sign_in_failures where at < $1", [before]);
  await db.query("delete from sign_in_throttle where window_ends_at < $1", [before]);
}
