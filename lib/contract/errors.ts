import { z } from "./zod";

export const errorTypes = [
  "authentication_error",
  "permission_error",
  "invalid_request_error",
  "not_found_error",
  "conflict_error",
  "rate_limit_error",
  "api_error",
] as const;
export type ErrorType = (typeof errorTypes)[number];

/**
 * Every error code the API answers with, its HTTP status and type: declared once, used by the
 * server to build errors and by clients to branch on `code`.
 */
export const errorCatalog = {
  missing_api_key: { status: 401, type: "authentication_error" },
  invalid_api_key: { status: 401, type: "authentication_error" },
  revoked_api_key: { status: 401, type: "authentication_error" },
  expired_api_key: { status: 401, type: "authentication_error" },
  ip_not_allowed: { status: 403, type: "permission_error" },
  key_pending_activation: { status: 403, type: "permission_error" },
  insufficient_scope: { status: 403, type: "permission_error" },
  // Organiser admin surface (outside /v1).
  missing_admin_token: { status: 401, type: "authentication_error" },
  invalid_admin_token: { status: 401, type: "authentication_error" },
  key_not_found: { status: 404, type: "not_found_error" },
  key_revoked: { status: 409, type: "conflict_error" },
  // Sandbox controls of the simulator (outside /v1).
  terminal_not_found: { status: 404, type: "not_found_error" },
  console_not_attached: { status: 409, type: "conflict_error" },

  invalid_json: { status: 400, type: "invalid_request_error" },
  invalid_parameter: { status: 400, type: "invalid_request_error" },
  parameter_missing: { status: 400, type: "invalid_request_error" },
  unknown_parameter: { status: 400, type: "invalid_request_error" },
  idempotency_key_missing: { status: 400, type: "invalid_request_error" },
  idempotency_key_invalid: { status: 400, type: "invalid_request_error" },
  batch_too_large: { status: 400, type: "invalid_request_error" },
  ticket_not_found: { status: 404, type: "not_found_error" },
  wristband_not_found: { status: 404, type: "not_found_error" },
  route_not_found: { status: 404, type: "not_found_error" },
  method_not_allowed: { status: 405, type: "invalid_request_error" },
  ticket_code_taken: { status: 409, type: "conflict_error" },
  ticket_already_used: { status: 409, type: "conflict_error" },
  ticket_inactive: { status: 409, type: "conflict_error" },
  wristband_already_linked: { status: 409, type: "conflict_error" },
  wristband_not_active: { status: 409, type: "conflict_error" },
  wristband_not_in_review: { status: 409, type: "conflict_error" },
  insufficient_balance: { status: 409, type: "conflict_error" },
  bonus_mismatch: { status: 409, type: "conflict_error" },
  idempotency_key_in_use: { status: 409, type: "conflict_error" },
  request_too_large: { status: 413, type: "invalid_request_error" },
  unsupported_media_type: { status: 415, type: "invalid_request_error" },
  idempotency_key_reused: { status: 422, type: "invalid_request_error" },
  rate_limit_exceeded: { status: 429, type: "rate_limit_error" },
  internal_error: { status: 500, type: "api_error" },
} as const satisfies Record<string, { status: number; type: ErrorType }>;

export type ErrorCode = keyof typeof errorCatalog;
export const errorCodes = Object.keys(errorCatalog) as [ErrorCode, ...ErrorCode[]];

export const ErrorBody = z
  .object({
    error: z.object({
      type: z.enum(errorTypes),
      code: z.string().openapi({ description: "Stable; clients branch on it.", example: "ticket_not_found" }),
      message: z.string().openapi({ description: "Human-readable; its wording may change." }),
      param: z.string().optional().openapi({ example: "tickets[3].attendee.email" }),
      request_id: z
        .string()
        .regex(/^req_[0-9a-f]+$/)
        .openapi({ example: "req_8f14e45fceea167a5a36dedd4bea2543" }),
    }),
  })
  .openapi("Error");
export type ErrorBody = z.infer<typeof ErrorBody>;
