import type { Queryable } from "./db";

export interface IdempotencyRecord {
  api_key_id: string;
  key: string;
  method: string;
  path: string;
  body_hash: string;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
}

export type ClaimResult =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "in_use" }
  | { kind: "reused" };

/** How long an idempotency key is remembered. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim whose request never finished (the process died) may be taken over after this. */
export const ABANDONED_CLAIM_MS = 60 * 1000;

export const idempotencyStore = {
  /**
   * Claims (key, api key) for a request, atomically: the first caller gets "claimed"; a later one
   * gets the stored answer, "in_use" while the first runs, or "reused" for a different request.
   */
  async claim(
    db: Queryable,
    claim: { apiKeyId: string; key: string; method: string; path: string; bodyHash: string },
    now: Date,
  ): Promise<ClaimResult> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await db.query(
        `insert into idempotency_keys (api_key_id, key, method, path, body_hash, created_at)
         values ($1, $2, $3, $4, $5, $6) on conflict (api_key_id, key) do nothing returning key`,
        [claim.apiKeyId, claim.key, claim.method, claim.path, claim.bodyHash, now],
      );
      if (inserted.length === 1) return { kind: "claimed" };
      const [existing] = await db.query<IdempotencyRecord>(
        "select * from idempotency_keys where api_key_id = $1 and key = $2",
        [claim.apiKeyId, claim.key],
      );
      if (!existing) continue; // released between the two statements: try again
      const age = now.getTime() - Date.parse(existing.created_at);
      if (age >= RETENTION_MS) {
        await db.query(
          "delete from idempotency_keys where api_key_id = $1 and key = $2 and created_at = $3",
          [claim.apiKeyId, claim.key, existing.created_at],
        );
        continue;
      }
      const same =
        existing.method === claim.method &&
        existing.path === claim.path &&
        existing.body_hash === claim.bodyHash;
      if (!same) return { kind: "reused" };
      if (existing.response_status !== null && existing.response_body !== null) {
        return { kind: "replay", status: existing.response_status, body: existing.response_body };
      }
      if (age < ABANDONED_CLAIM_MS) return { kind: "in_use" };
      // The first request died before committing anything (its result is stored in the same
      // transaction as its effects): take the claim over.
      const taken = await db.query(
        `update idempotency_keys set created_at = $3
         where api_key_id = $1 and key = $2 and response_status is null and created_at = $4 returning key`,
        [claim.apiKeyId, claim.key, now, existing.created_at],
      );
      return taken.length === 1 ? { kind: "claimed" } : { kind: "in_use" };
    }
    return { kind: "in_use" };
  },

  /** Stores the answer; called inside the transaction that holds the request's effects. */
  async complete(db: Queryable, apiKeyId: string, key: string, status: number, body: string): Promise<void> {
    await db.query(
      "update idempotency_keys set response_status = $3, response_body = $4 where api_key_id = $1 and key = $2",
      [apiKeyId, key, status, body],
    );
  },

  /** Forgets an unfinished claim so the client may retry with the same key. */
  async release(db: Queryable, apiKeyId: string, key: string): Promise<void> {
    await db.query(
      "delete from idempotency_keys where api_key_id = $1 and key = $2 and response_status is null",
      [apiKeyId, key],
    );
  },

  async purgeExpired(db: Queryable, now: Date): Promise<void> {
    await db.query("delete from idempotency_keys where created_at < $1", [
      new Date(now.getTime() - RETENTION_MS),
    ]);
  },
};
