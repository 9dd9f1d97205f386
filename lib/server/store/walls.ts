import "server-only";
import type { Queryable } from "@/lib/db/db";

/** Walls: a name, the SHA-256 of the token a TV connects with, who issued it, when it was last seen. */

export interface WallRow {
  id: string;
  name: string;
  created_by: string;
  created_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

const COLUMNS = "id, name, created_by, created_at, last_seen_at, revoked_at, revoked_by";

export async function insertWall(
  db: Queryable,
  row: { id: string; name: string; tokenHash: string; createdBy: string; at: Date },
): Promise<WallRow> {
  const [wall] = await db.query<WallRow>(
    `insert into walls (id, name, token_hash, created_by, created_at) values ($1, $2, $3, $4, $5)
     returning ${COLUMNS}`,
    [row.id, row.name, row.tokenHash, row.createdBy, row.at],
  );
  return wall!;
}

/** Every wall, live ones first, newest first. */
export function listWalls(db: Queryable): Promise<WallRow[]> {
  return db.query<WallRow>(
    `select ${COLUMNS} from walls order by revoked_at is not null, created_at desc, id`,
  );
}

/** The wall of a token's hash, unless it was revoked. */
export async function findLiveWall(db: Queryable, tokenHash: string): Promise<WallRow | undefined> {
  const [wall] = await db.query<WallRow>(
    `select ${COLUMNS} from walls where token_hash = $1 and revoked_at is null`,
    [tokenHash],
  );
  return wall;
}

/** Revokes a wall (the first revocation stands); answers the wall, or undefined when there is none. */
export async function revokeWall(
  db: Queryable,
  id: string,
  by: string,
  at: Date,
): Promise<{ wall: WallRow; changed: boolean } | undefined> {
  const [updated] = await db.query<WallRow>(
    `update walls set revoked_at = $3, revoked_by = $2 where id = $1 and revoked_at is null returning ${COLUMNS}`,
    [id, by, at],
  );
  if (updated) return { wall: updated, changed: true };
  const [wall] = await db.query<WallRow>(`select ${COLUMNS} from walls where id = $1`, [id]);
  return wall ? { wall, changed: false } : undefined;
}

/** Notes that the wall is on screen; at most one write a minute per wall. */
export async function touchWall(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(
    `update walls set last_seen_at = $2
      where id = $1 and (last_seen_at is null or last_seen_at < $2::timestamptz - interval '1 minute')`,
    [id, at],
  );
}
