import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { User } from "./users";

/** Server-side sessions: rows keyed by the SHA-256 of the id the sealed cookie carries. */

export async function insertSession(
  db: Queryable,
  row: {
    idHash: string;
    userId: string;
    createdAt: Date;
    expiresAt: Date;
    address: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  await db.query(
    `insert into sessions (id_hash, user_id, created_at, expires_at, address, user_agent)
     values ($1, $2, $3, $4, $5, $6)`,
    [row.idHash, row.userId, row.createdAt, row.expiresAt, row.address, row.userAgent],
  );
}

/** The user of a live session (not expired, not ended), read fresh: a role change counts at once. */
export async function findSessionUser(db: Queryable, idHash: string, now: Date): Promise<User | undefined> {
  const [user] = await db.query<User>(
    `select u.id, u.username, u.role, u.locale, u.theme, u.created_at from sessions s join users u on u.id = s.user_id
      where s.id_hash = $1 and s.expires_at > $2`,
    [idHash, now],
  );
  return user;
}

export async function deleteSession(db: Queryable, idHash: string): Promise<void> {
  await db.query("delete from sessions where id_hash = $1", [idHash]);
}

/** Ends every session of a user; answers how many there were. */
export async function deleteUserSessions(db: Queryable, userId: string): Promise<number> {
  return (await db.query("delete from sessions where user_id = $1 returning id_hash", [userId])).length;
}

/** Live sessions per user id. */
export async function liveSessionCounts(db: Queryable, now: Date): Promise<Map<string, number>> {
  const rows = await db.query<{ user_id: string; n: number }>(
    "select user_id, count(*)::int as n from sessions where expires_at > $1 group by user_id",
    [now],
  );
  return new Map(rows.map((r) => [r.user_id, r.n]));
}

export async function pruneExpiredSessions(db: Queryable, now: Date): Promise<void> {
  await db.query("delete from sessions where expires_at <= $1", [now]);
}
