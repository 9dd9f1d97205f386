import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { Locale } from "@/lib/shared/i18n/locales";
import type { Role } from "@/lib/shared/permissions";
import type { Theme } from "@/lib/shared/theme";

export interface User {
  id: string;
  username: string;
  role: Role;
  /** Null until the user picks a language: the browser's is used. */
  locale: Locale | null;
  /** Null until the user picks a theme: the system's is used. */
  theme: Theme | null;
  created_at: string;
}

const COLUMNS = "id, username, role, locale, theme, created_at";

export async function insertUser(
  db: Queryable,
  row: { id: string; username: string; passwordHash: string; role: Role },
): Promise<User> {
  const [user] = await db.query<User>(
    `insert into users (id, username, password_hash, role) values ($1, $2, $3, $4) returning ${COLUMNS}`,
    [row.id, row.username, row.passwordHash, row.role],
  );
  return user!;
}

export async function usernameTaken(db: Queryable, username: string): Promise<boolean> {
  return (await db.query("select 1 from users where username = $1", [username])).length > 0;
}

export function listUsers(db: Queryable): Promise<User[]> {
  return db.query<User>(`select ${COLUMNS} from users order by username`);
}

/** Removes a user; their sessions go with them (on delete cascade). */
export async function deleteUser(db: Queryable, username: string): Promise<User | undefined> {
  const [user] = await db.query<User>(`delete from users where username = $1 returning ${COLUMNS}`, [
    username,
  ]);
  return user;
}

/** A new password hash. */
export async function updatePassword(
  db: Queryable,
  username: string,
  passwordHash: string,
): Promise<User | undefined> {
  const [user] = await db.query<User>(
    `update users set password_hash = $2, updated_at = now() where username = $1 returning ${COLUMNS}`,
    [username, passwordHash],
  );
  return user;
}

/**
 * Gives a user another role; a user who has that role already is left alone. Answers the user and
 * whether the role changed (one statement decides, on the row as it is when it is locked), or
 * undefined when there is no such user.
 */
export async function updateRole(
  db: Queryable,
  username: string,
  role: Role,
): Promise<{ user: User; changed: boolean } | undefined> {
  const [updated] = await db.query<User>(
    `update users set role = $2, updated_at = now() where username = $1 and role <> $2 returning ${COLUMNS}`,
    [username, role],
  );
  if (updated) return { user: updated, changed: true };
  const unchanged = await findUserByName(db, username);
  return unchanged && { user: unchanged, changed: false };
}

/** Keeps the language a user chose. */
export async function updateLocale(db: Queryable, id: string, locale: Locale): Promise<void> {
  await db.query("update users set locale = $2, updated_at = now() where id = $1", [id, locale]);
}

/** Keeps the theme a user chose. */
export async function updateTheme(db: Queryable, id: string, theme: Theme): Promise<void> {
  await db.query("update users set theme = $2, updated_at = now() where id = $1", [id, theme]);
}

export async function findUser(db: Queryable, id: string): Promise<User | undefined> {
  const [user] = await db.query<User>(`select ${COLUMNS} from users where id = $1`, [id]);
  return user;
}

export async function findUserByName(db: Queryable, username: string): Promise<User | undefined> {
  const [user] = await db.query<User>(`select ${COLUMNS} from users where username = $1`, [username]);
  return user;
}

export async function findUserWithHash(
  db: Queryable,
  username: string,
): Promise<(User & { password_hash: string }) | undefined> {
  const [row] = await db.query<User & { password_hash: string }>(
    `select ${COLUMNS}, password_hash from users where username = $1`,
    [username],
  );
  return row;
}
