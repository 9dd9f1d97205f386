import { z } from "zod";

/**
 * The console's one error: a stable code, a message in plain words, the HTTP status (from the code,
 * or the upstream's own status for an upstream refusal), the offending parameter and the upstream
 * request id when there are any. Route handlers answer it as the one envelope below; the browser's
 * client turns that envelope back into the same class.
 */

/** Status of each code the console itself raises (upstream codes keep the upstream's status). */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_parameter: 400,
  invalid_path: 400,
  not_signed_in: 401,
  invalid_credentials: 401,
  forbidden: 403,
  foreign_origin: 403,
  origin_required: 403,
  unknown_host: 403,
  not_found: 404,
  method_not_allowed: 405,
  nothing_found: 404,
  import_not_found: 404,
  night_not_ended: 409,
  ticket_not_valid_today: 409,
  night_incomplete: 409,
  /** Closing a night (issue 24): one code per fault. */
  unknown_count_line: 400,
  duplicate_count_line: 400,
  unknown_denomination: 400,
  comment_required: 400,
  approver_is_signer: 403,
  night_not_checked: 409,
  night_differs: 409,
  already_signed: 409,
  already_approved: 409,
  approval_not_needed: 409,
  signoff_superseded: 409,
  already_waived: 409,
  terminal_not_pending: 409,
  already_acknowledged: 409,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_rows: 422,
  account_locked: 423,
  lookup_budget_exhausted: 429,
  upstream_busy: 429,
  internal_error: 500,
  /** The browser could not reach the console, or its answer was not the expected shape. */
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class ConsoleError extends Error {
  override readonly name = "ConsoleError";
  readonly status: number;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  /** Seconds after which a retry may succeed (429): answered as the `retry-after` header. */
  readonly retryAfter: number | undefined;

  constructor(
    readonly code: ErrorCode | (string & {}),
    message: string,
    options: { status?: number; param?: string; requestId?: string; retryAfter?: number } = {},
  ) {
    super(message);
    this.status = options.status ?? ERROR_STATUS[code as ErrorCode] ?? 500;
    this.param = options.param;
    this.requestId = options.requestId;
    this.retryAfter = options.retryAfter;
  }
}

/** Whether err is a ConsoleError (by shape: Next bundles server code more than once). */
export function isConsoleError(err: unknown): err is ConsoleError {
  return (
    err instanceof Error && err.name === "ConsoleError" && typeof (err as ConsoleError).code === "string"
  );
}

/** The body of every error answer of the console's route handlers. */
export const ErrorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    param: z.string().optional(),
    request_id: z.string().optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export function errorEnvelope(err: ConsoleError): ErrorEnvelope {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.param ? { param: err.param } : {}),
      ...(err.requestId ? { request_id: err.requestId } : {}),
    },
  };
}

/** An error a write may be retried for with the same Idempotency-Key (no final answer yet). */
export function isRetryable(err: unknown): boolean {
  if (!isConsoleError(err)) return true;
  return err.status >= 500 || err.status === 0 || err.code === "idempotency_key_in_use";
}
