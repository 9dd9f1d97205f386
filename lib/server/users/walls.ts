import "server-only";
import { randomBytes } from "node:crypto";
import type { Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { WallIssued, WallsView, WallView } from "@/lib/shared/api/wall";
import type { SessionUser } from "../auth/session";
import { newWallToken, wallTokenHash } from "../auth/wall-session";
import { recordAudit } from "../store/audit-log";
import { eventFormat } from "../store/event-settings";
import * as store from "../store/walls";

/**
 * Walls on the users screen (managers): issue one (its link is shown once), see when each was last
 * on screen, revoke one (its session ends at once). Issuing and revoking are audited.
 */

const view = (w: store.WallRow): WallView => ({ ...w });

export async function wallsView(db: Queryable): Promise<WallsView> {
  const [walls, format] = await Promise.all([store.listWalls(db), eventFormat(db)]);
  return { walls: walls.map(view), timeZone: format.timeZone };
}

export async function issueWall(
  db: Queryable,
  manager: SessionUser,
  name: string,
  now: Date,
): Promise<WallIssued> {
  const token = newWallToken();
  const wall = await store.insertWall(db, {
    id: randomBytes(12).toString("hex"),
    name,
    tokenHash: wallTokenHash(token),
    createdBy: manager.username,
    at: now,
  });
  await recordAudit(db, {
    user: manager,
    action: "wall.issue",
    target: wall.id,
    outcome: "ok",
    detail: { name },
  });
  return { wall: view(wall), connect_path: `/wall/connect#${token}` };
}

export async function revokeWall(db: Queryable, manager: SessionUser, id: string, now: Date) {
  const result = await store.revokeWall(db, id, manager.username, now);
  if (!result) throw new ConsoleError("not_found", `There is no wall ${id}.`);
  await recordAudit(db, {
    user: manager,
    action: "wall.revoke",
    target: id,
    outcome: result.changed ? "ok" : "unchanged",
    detail: { name: result.wall.name },
  });
  return { wall: view(result.wall), changed: result.changed };
}
