import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { ApiError, errorBody } from "../errors";
import type { Queryable } from "../store/db";
import { idempotencyStore } from "../store/idempotency-store";
import type { AppEnv } from "./context";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Same JSON, same text: key order and whitespace do not make a body "different". */
export function canonicalBody(raw: string): string {
  if (raw.trim() === "") return "";
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw)));
  } catch {
    return raw;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * Every POST of v1: requires an Idempotency-Key (UUID), claims it for this API key, and replays
 * the stored answer for a repeat. Runs after authentication and before body validation.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("idempotency-key");
  if (!header)
    throw new ApiError(
      "idempotency_key_missing",
      "Send an Idempotency-Key header (a UUID).",
      "Idempotency-Key",
    );
  if (!UUID.test(header))
    throw new ApiError("idempotency_key_invalid", "Idempotency-Key must be a UUID.", "Idempotency-Key");
  const { db } = c.get("services");
  const apiKeyId = c.get("apiKey").row.id;
  const key = header.toLowerCase();
  const raw = await c.req.text();
  const bodyHash = createHash("sha256").update(canonicalBody(raw)).digest("hex");
  // The decoded path may hold a NUL (`/tickets/a%00b/cancel`), which PostgreSQL text cannot store.
  const path = c.req.path.replaceAll("\u0000", "%00");
  const result = await idempotencyStore.claim(
    db,
    { apiKeyId, key, method: c.req.method, path, bodyHash },
    c.get("services").clock(),
  );
  if (result.kind === "reused") {
    throw new ApiError(
      "idempotency_key_reused",
      "This Idempotency-Key was used with a different request.",
      "Idempotency-Key",
    );
  }
  if (result.kind === "in_use") {
    throw new ApiError(
      "idempotency_key_in_use",
      "A request with this Idempotency-Key is still running.",
      "Idempotency-Key",
    );
  }
  if (result.kind === "replay") {
    return c.body(result.body, result.status as 200, {
      "content-type": "application/json",
      "Idempotent-Replayed": "true",
    });
  }
  c.set("idempotencyKey", key);
  await next();
  // Hono turns a thrown error into the error response before we get here and leaves it in c.error.
  // Validation errors, 404s and 5xx are not remembered: the client may retry with the same key.
  if (c.error) await idempotencyStore.release(db, apiKeyId, key);
};

/**
 * Runs a write once: its effects and its stored answer commit in one transaction, so a crash
 * leaves either both or neither. A business conflict (409) is remembered too, without effects.
 */
export async function executeOnce<T>(
  c: Context<AppEnv>,
  status: 200 | 201,
  work: (tx: Queryable) => Promise<T>,
): Promise<Response> {
  const { db } = c.get("services");
  const apiKeyId = c.get("apiKey").row.id;
  const key = c.get("idempotencyKey");
  try {
    const text = await db.transaction(async (tx) => {
      const body = JSON.stringify(await work(tx));
      await idempotencyStore.complete(tx, apiKeyId, key, status, body);
      return body;
    });
    return c.body(text, status, { "content-type": "application/json" });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 409) throw err;
    const text = JSON.stringify(errorBody(err, c.get("requestId")));
    await idempotencyStore.complete(db, apiKeyId, key, err.status, text);
    return c.body(text, 409, { "content-type": "application/json" });
  }
}
