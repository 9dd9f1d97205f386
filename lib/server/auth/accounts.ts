import "server-only";
import { randomBytes } from "node:crypto";
import { systemClock } from "@/lib/contract/clock";
import type { Queryable } from "@/lib/db/db";
import { type Role, roles } from "@/lib/shared/permissions";
import { liveSessionCounts } from "../store/sessions";
import { clearAttempts, lockedKeys } from "../store/sign-in-throttle";
import * as store from "../store/users";
import { hashPassword } from "./passwords";
import { endUserSessions } from "./session";
import { accountThrottleKey } from "./throttle";

export type { User } from "../store/users";

type User = store.User;

export class UserError extends Error {}

const USERNAME = /^[a-z0-9][a-z0-9._-]{2,31}$/;
export const MIN_PASSWORD_LENGTH = 10;

export function validateNewUser(username: string, password: string, role: string) {
  if (!USERNAME.test(username)) throw new UserError("username: 3 to 32 of a-z, 0-9, '.', '_' or '-'");
  validateRole(role);
  validatePassword(password);
}

function validateRole(role: string): asserts role is Role {
  if (!(roles as readonly string[]).includes(role)) throw new UserError(`role: one of ${roles.join(", ")}`);
}

export function validatePassword(password: string) {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UserError(`password: at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

export async function addUser(db: Queryable, username: string, password: string, role: Role): Promise<User> {
  validateNewUser(username, password, role);
  if (await store.usernameTaken(db, username)) throw new UserError(`username: ${username} exists already`);
  return store.insertUser(db, {
    id: randomBytes(12).toString("hex"),
    username,
    passwordHash: await hashPassword(password),
    role,
  });
}

export const listUsers = store.listUsers;
export const findUser = store.findUser;

const noUser = (username: string) => new UserError(`username: no user ${username}`);

/** Removes a user: their sessions end with them. */
export async function removeUser(db: Queryable, username: string): Promise<void> {
  if (!(await store.deleteUser(db, username))) throw noUser(username);
}

/** A new password: every session of the user ends, and the account is unlocked. */
export async function setPassword(db: Queryable, username: string, password: string): Promise<void> {
  validatePassword(password);
  const user = await store.updatePassword(db, username, await hashPassword(password));
  if (!user) throw noUser(username);
  await endUserSessions(db, user.id);
  await unlockAccount(db, username);
}

/**
 * A new role: every session of the user ends (they sign in again with the new role's screens).
 * The role they have already changes nothing and ends no session. Answers whether the role
 * changed and how many sessions ended.
 */
export async function setRole(
  db: Queryable,
  username: string,
  role: string,
): Promise<{ changed: boolean; endedSessions: number }> {
  validateRole(role);
  const result = await store.updateRole(db, username, role);
  if (!result) throw noUser(username);
  if (!result.changed) return { changed: false, endedSessions: 0 };
  return { changed: true, endedSessions: await endUserSessions(db, result.user.id) };
}

/** Lifts the lock of an account name for new browsers (failures counted so far are forgotten). */
export function unlockAccount(db: Queryable, username: string): Promise<void> {
  return clearAttempts(db, [accountThrottleKey(username)]);
}

/** Ends every session of a user by name ("sign out everywhere" for someone else); answers how many. */
export async function endSessionsOf(db: Queryable, username: string): Promise<number> {
  const user = await store.findUserByName(db, username);
  if (!user) throw noUser(username);
  return endUserSessions(db, user.id);
}

export interface AccountState extends User {
  /** Until when sign-in from new browsers is refused (failures from elsewhere), or null. */
  locked_until: string | null;
  /** Live sessions. */
  sessions: number;
}

/**
 * Every user with their lock and live sessions as of `now`. The default is only for the users CLI
 * (scripts/users.ts, a process of its own on the system clock); the console passes its clock.
 */
export async function accountStates(db: Queryable, now: Date = systemClock()): Promise<AccountState[]> {
  const users = await store.listUsers(db);
  const locks = await lockedKeys(
    db,
    users.map((u) => accountThrottleKey(u.username)),
    now,
  );
  const lockOf = new Map(locks.map((l) => [l.key, l.window_ends_at]));
  const sessions = await liveSessionCounts(db, now);
  return users.map((u) => ({
    ...u,
    locked_until: lockOf.get(accountThrottleKey(u.username)) ?? null,
    sessions: sessions.get(u.id) ?? 0,
  }));
}
