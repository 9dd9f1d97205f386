import type { RateLimits, Scope } from "../../lib/contract/resources";
import type { Queryable } from "./db";

export interface ApiKeyRow {
  id: string;
  name: string;
  key_hash: string;
  key_hint: string;
  environment: "live" | "test";
  scopes: Scope[];
  restricted_ticket_type_ids: string[];
  restricted_day_ids: string[];
  rate_limits: RateLimits;
  allowed_ips: string[];
  expires_at: string | null;
  activated_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** A key to insert: instants may be Dates (the row read back carries ISO strings). */
export type NewApiKeyRow = Omit<ApiKeyRow, "revoked_at" | "expires_at" | "activated_at" | "created_at"> & {
  expires_at: Date | null;
  activated_at: Date | null;
  created_at: Date;
};

export const keysStore = {
  async insert(db: Queryable, row: NewApiKeyRow): Promise<ApiKeyRow> {
    const [created] = await db.query<ApiKeyRow>(
      `insert into api_keys (id, name, key_hash, key_hint, environment, scopes, restricted_ticket_type_ids,
         restricted_day_ids, rate_limits, allowed_ips, expires_at, activated_at, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning *`,
      [
        row.id,
        row.name,
        row.key_hash,
        row.key_hint,
        row.environment,
        row.scopes,
        row.restricted_ticket_type_ids,
        row.restricted_day_ids,
        JSON.stringify(row.rate_limits),
        row.allowed_ips,
        row.expires_at,
        row.activated_at,
        row.created_at,
      ],
    );
    return created;
  },

  async findByHash(db: Queryable, keyHash: string): Promise<ApiKeyRow | undefined> {
    const [row] = await db.query<ApiKeyRow>("select * from api_keys where key_hash = $1", [keyHash]);
    return row;
  },

  async findById(db: Queryable, id: string): Promise<ApiKeyRow | undefined> {
    const [row] = await db.query<ApiKeyRow>("select * from api_keys where id = $1", [id]);
    return row;
  },

  list(db: Queryable): Promise<ApiKeyRow[]> {
    return db.query<ApiKeyRow>("select * from api_keys order by id");
  },

  async activate(db: Queryable, id: string, at: Date): Promise<ApiKeyRow | undefined> {
    const [row] = await db.query<ApiKeyRow>(
      "update api_keys set activated_at = coalesce(activated_at, $2) where id = $1 returning *",
      [id, at],
    );
    return row;
  },

  async revoke(db: Queryable, id: string, at: Date): Promise<ApiKeyRow | undefined> {
    const [row] = await db.query<ApiKeyRow>(
      "update api_keys set revoked_at = coalesce(revoked_at, $2) where id = $1 returning *",
      [id, at],
    );
    return row;
  },
};
