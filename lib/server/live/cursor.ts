import "server-only";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { After } from "../store/live-records";

/** Cursors of the "latest" lists: (occurred_at, id) of the last row shown, opaque to the browser. */
export function encodeCursor(occurredAt: string, id: string): string {
  return Buffer.from(`${occurredAt}|${id}`).toString("base64url");
}

export function decodeCursor(cursor: string | null | undefined): After | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!at || !id || Number.isNaN(Date.parse(at)))
    throw new ConsoleError("invalid_parameter", "Invalid cursor.", { param: "cursor" });
  return { at, id };
}

/** A page fetched with `limit + 1` rows: the extra one only says that more exist. */
export function toPage<T extends { id: string; occurred_at: string }>(rows: T[], limit: number) {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data, next_cursor: rows.length > limit && last ? encodeCursor(last.occurred_at, last.id) : null };
}
