import "server-only";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { After } from "../store/live-records";

/** Cursors of the "latest" lists: (occurred_at, id) of the last row shown, opaque to the browser. */
export function encodeCursor(occurredAt: string, id: string): string {
  return Buffer.from(`${occurredAt}|${id}`).toString("base64url");
}

const invalidCursor = () =>
  new ConsoleError("invalid_parameter", "This page link is not valid: go back to the first page.", {
    param: "cursor",
  });

/** What a cursor holds: the instant exactly as encodeCursor wrote it, and a record id. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);

/**
 * A cursor parsed and checked, never decoded and trusted: it must be the canonical base64url of
 * `<ISO instant with milliseconds, UTC>|<record id>`, with a real instant (no 30 February, no
 * year 0) between 2000 and 2100, so that whatever reaches the store is a valid timestamp and id.
 * Anything else is `400 invalid_parameter` (param `cursor`).
 */
export function decodeCursor(cursor: string | null | undefined): After | null {
  if (!cursor) return null;
  if (!/^[A-Za-z0-9_-]{1,300}$/.test(cursor)) throw invalidCursor();
  const bytes = Buffer.from(cursor, "base64url");
  if (bytes.toString("base64url") !== cursor) throw invalidCursor();
  const parts = bytes.toString("utf8").split("|");
  if (parts.length !== 2) throw invalidCursor();
  const [at, id] = parts as [string, string];
  const time = Date.parse(at);
  const real = INSTANT.test(at) && !Number.isNaN(time) && new Date(time).toISOString() === at;
  if (!real || time < EARLIEST || time >= LATEST || !RECORD_ID.test(id)) throw invalidCursor();
  return { at, id };
}

/** A page fetched with `limit + 1` rows: the extra one only says that more exist. */
export function toPage<T extends { id: string; occurred_at: string }>(rows: T[], limit: number) {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data, next_cursor: rows.length > limit && last ? encodeCursor(last.occurred_at, last.id) : null };
}
