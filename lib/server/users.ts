import "server-only";
import { randomBytes } from "node:crypto";
import type { Queryable } from "@/lib/db/db";
import { type Role, roles } from "@/lib/permissions";
import { DUMMY_HASH, hashPassword, verifyPassword } from "./passwords";

export interface User {
  id: string;
  username: string;
  role: Role;
  failed_attempts: number;
  locked_until: Date | null;
  created_at: Date;
}

export class UserError extends Error {}

const USERNAME = /^[a-z0-9][a-z0-9._-]{2,31}$/;
export const MIN_PASSWORD_LENGTH = 10;
/** Wrong passwords before the account locks; from SLOW_AFTER on, each answer is delayed. */
export const LOCK_AFTER = 5;
export const SLOW_AFTER = 3;
export const LOCK_MINUTES = 15;

export function validateNewUser(username: string, password: string, role: string) {
  if (!USERNAME.test(username)) throw new UserError("username: 3 to 32 of a-z, 0-9, '.', '_' or '-'");
  if (!(roles as readonly string[]).includes(role)) throw new UserError(`role: one of ${roles.join(", ")}`);
  validatePassword(password);
}

export function validatePassword(password: string) {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UserError(`password: at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

export async function addUser(db: Queryable, username: string, password: string, role: Role): Promise<User> {
  validateNewUser(username, password, role);
  const existing = await db.query("select 1 from users where username = $1", [username]);
  if (existing.length) throw new UserError(`username: ${username} exists already`);
  const [user] = await db.query<User>(
    `insert into users (id, username, password_hash, role) values ($1, $2, $3, $4)
     returning id, username, role, failed_attempts, locked_until, created_at`,
    [randomBytes(12).toString("hex"), username, await hashPassword(password), role],
  );
  return user;
}

export function listUsers(db: Queryable): Promise<User[]> {
  return db.query<User>(
    "select id, username, role, failed_attempts, locked_until, created_at from users order by username",
  );
}

export async function removeUser(db: Queryable, username: string): Promise<void> {
  const removed = await db.query("delete from users where username = $1 returning id", [username]);
  if (!removed.length) throw new UserError(`username: no user ${username}`);
}

export async function setPassword(db: Queryable, username: string, password: string): Promise<void> {
  validatePassword(password);
  const updated = await db.query(
    `update users set password_hash = $2, failed_attempts = 0, locked_until = null, updated_at = now()
     where username = $1 returning id`,
    [username, await hashPassword(password)],
  );
  if (!updated.length) throw new UserError(`username: no user ${username}`);
}

export async function findUser(db: Queryable, id: string): Promise<User | undefined> {
  const [user] = await db.query<User>(
    "select id, username, role, failed_attempts, locked_until, created_at from users where id = $1",
    [id],
  );
  return user;
}

export type LoginResult =
  | { ok: true; user: User }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; until: Date };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks a login. Unknown users cost the same scrypt as known ones. Repeated wrong passwords are
 * answered more and more slowly, then lock the account for LOCK_MINUTES; a success resets the count.
 */
export async function login(
  db: Queryable,
  username: string,
  password: string,
  options: { now?: Date; delay?: (ms: number) => Promise<void> } = {},
): Promise<LoginResult> {
  const now = options.now ?? new Date();
  const delay = options.delay ?? sleep;
  const [row] = await db.query<User & { password_hash: string }>("select * from users where username = $1", [
    username,
  ]);
  if (!row) {
    await verifyPassword(password, DUMMY_HASH);
    return { ok: false, reason: "invalid" };
  }
  if (row.locked_until && row.locked_until > now)
    return { ok: false, reason: "locked", until: row.locked_until };
  if (await verifyPassword(password, row.password_hash)) {
    await db.query("update users set failed_attempts = 0, locked_until = null where id = $1", [row.id]);
    const { password_hash: _, ...user } = row;
    return { ok: true, user: { ...user, failed_attempts: 0, locked_until: null } };
  }
  // A lock that has run out starts a fresh count.
  const failures = (row.locked_until ? 0 : row.failed_attempts) + 1;
  const lockedUntil = failures >= LOCK_AFTER ? new Date(now.getTime() + LOCK_MINUTES * 60_000) : null;
  await db.query("update users set failed_attempts = $2, locked_until = $3 where id = $1", [
    row.id,
    lockedUntil ? 0 : failures,
    lockedUntil,
  ]);
  if (lockedUntil) return { ok: false, reason: "locked", until: lockedUntil };
  if (failures >= SLOW_AFTER) await delay(1000 * 2 ** (failures - SLOW_AFTER));
  return { ok: false, reason: "invalid" };
}
