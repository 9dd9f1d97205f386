import "server-only";
import type { ErrorType } from "@/lib/contract";

/** Codes the client makes up when the upstream gave no error envelope. */
export type SyntheticErrorCode = "network_error" | "timeout" | "invalid_response";

/** An upstream failure: the error envelope's fields, or a synthetic one (status 0 = no HTTP answer). */
export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | undefined;
  readonly request_id: string | null;
  /** Seconds from `retry-after`, when the answer had one. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    status: number;
    type: ErrorType;
    code: string;
    message: string;
    param?: string;
    request_id?: string | null;
    retryAfter?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param;
    this.request_id = init.request_id ?? null;
    this.retryAfter = init.retryAfter;
  }

  /** No HTTP answer at all (connection refused, reset, DNS, timeout). */
  get isNetwork(): boolean {
    return this.status === 0;
  }

  toJSON() {
    return {
      status: this.status,
      type: this.type,
      code: this.code,
      message: this.message,
      param: this.param,
      request_id: this.request_id,
    };
  }
}

/**
 * Whether err is an UpstreamError. Checked by shape, not instanceof: Next bundles server code more than
 * once (instrumentation, route handlers), and the shared client's errors may come from another copy.
 */
export function isUpstreamError(err: unknown): err is UpstreamError {
  return (
    err instanceof Error &&
    err.name === "UpstreamError" &&
    typeof (err as UpstreamError).status === "number" &&
    typeof (err as UpstreamError).code === "string"
  );
}
