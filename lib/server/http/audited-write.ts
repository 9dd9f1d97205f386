import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { SessionUser } from "../auth/session";
import { recordAudit } from "../store/audit-log";
import type { RequestOptions } from "../upstream/client";
import { isUpstreamError, toConsoleError } from "./upstream-errors";

/**
 * One audited upstream write: the call gets `{ idempotencyKey, onResponse }`, and whatever happens
 * (success, upstream refusal, no answer) an audit entry records who, what, the key, the upstream
 * request id and the outcome. Upstream errors are rethrown as the console's error.
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
  const entry = {
    user: what.user,
    action: what.action,
    target: what.target,
    idempotencyKey: what.idempotencyKey,
  };
  try {
    const result = await call(opts);
    await recordAudit(db, {
      ...entry,
      upstreamRequestId: requestId,
      outcome: "ok",
      detail: { ...what.detail, ...what.summarize?.(result), ...(replayed ? { replayed: true } : {}) },
    });
    return result;
  } catch (err) {
    const api = isUpstreamError(err) ? err : null;
    await recordAudit(db, {
      ...entry,
      upstreamRequestId: api?.request_id ?? requestId,
      outcome: api ? api.code : "internal_error",
      detail: { ...what.detail, ...(api ? { status: api.status, message: api.message } : {}) },
    });
    throw toConsoleError(err);
  }
}
