import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { SessionUser } from "@/lib/server/guard";
import type { RequestOptions } from "@/lib/server/upstream";
import { isApiError, toHttpError } from "./errors";

export interface AuditEntry {
  id: string;
  at: string;
  username: string;
  role: string;
  action: string;
  target: string | null;
  idempotency_key: string | null;
  upstream_request_id: string | null;
  outcome: string;
  detail: Record<string, unknown>;
}

export interface NewAuditEntry {
  user: Pick<SessionUser, "username" | "role">;
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
  const rows = await db.query<AuditEntry & { at: Date | string; id: string | number }>(
    `select id::text as id, at, username, role, action, target, idempotency_key, upstream_request_id, outcome, detail
       from audit_log where ($1::bigint is null or id < $1::bigint) order by audit_log.id desc limit $2`,
    [options.before ?? null, limit + 1],
  );
  const data = rows.slice(0, limit).map((r) => ({
    ...r,
    id: String(r.id),
    at: new Date(r.at).toISOString(),
  }));
  return { data, next_before: rows.length > limit ? data[data.length - 1]!.id : null };
}

/**
 * One audited upstream write: the call gets `{ idempotencyKey, onResponse }`, and whatever happens
 * (success, upstream refusal, no answer) an audit entry records who, what, the key, the upstream
 * request id and the outcome. Upstream errors are rethrown as the dashboard's HttpError.
 */
export async function auditedWrite<T>(
  db: Queryable,
  what: {
    user: Pick<SessionUser, "username" | "role">;
    action: string;
    target: string;
    idempotencyKey: string;
    detail?: Record<string, unknown>;
    /** Extra detail from the result, for the log (e.g. amounts). */
    summarize?: (result: NoInfer<T>) => Record<string, unknown>;
  },
  call: (opts: RequestOptions) => Promise<T>,
): Promise<T> {
  let requestId: string | null = null;
  let replayed = false;
  const opts: RequestOptions = {
    idempotencyKey: what.idempotencyKey,
    onResponse: (info) => {
      requestId = info.requestId ?? requestId;
      replayed = info.replayed;
    },
  };
  try {
    const result = await call(opts);
    await recordAudit(db, {
      user: what.user,
      action: what.action,
      target: what.target,
      idempotencyKey: what.idempotencyKey,
      upstreamRequestId: requestId,
      outcome: "ok",
      detail: { ...what.detail, ...what.summarize?.(result), ...(replayed ? { replayed: true } : {}) },
    });
    return result;
  } catch (err) {
    const api = isApiError(err) ? err : null;
    await recordAudit(db, {
      user: what.user,
      action: what.action,
      target: what.target,
      idempotencyKey: what.idempotencyKey,
      upstreamRequestId: api?.request_id ?? requestId,
      outcome: api ? api.code : "internal_error",
      detail: { ...what.detail, ...(api ? { status: api.status, message: api.message } : {}) },
    });
    throw toHttpError(err);
  }
}
