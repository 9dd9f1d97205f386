import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { AuditEntry } from "@/lib/shared/api/staff";

export interface NewAuditEntry {
  user: { username: string; role: string };
  action: string;
  target?: string | null;
  idempotencyKey?: string | null;
  upstreamRequestId?: string | null;
  /** `ok`, or the error code. */
  outcome: string;
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: Queryable, entry: NewAuditEntry): Promise<void> {
  await db.query(
    `insert into audit_log (username, role, action, target, idempotency_key, upstream_request_id, outcome, detail)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
    [
      entry.user.username,
      entry.user.role,
      entry.action,
      entry.target ?? null,
      entry.idempotencyKey ?? null,
      entry.upstreamRequestId ?? null,
      entry.outcome,
      JSON.stringify(entry.detail ?? {}),
    ],
  );
}

/** Newest first; `before` is an id for the next page. */
export async function listAudit(
  db: Queryable,
  options: { limit?: number; before?: string | null } = {},
): Promise<{ data: AuditEntry[]; next_before: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const rows = await db.query<AuditEntry>(
    `select id::text as id, at, username, role, action, target, idempotency_key, upstream_request_id, outcome, detail
       from audit_log where ($1::bigint is null or id < $1::bigint) order by audit_log.id desc limit $2`,
    [options.before ?? null, limit + 1],
  );
  const data = rows.slice(0, limit);
  return { data, next_before: rows.length > limit ? data[data.length - 1]!.id : null };
}
