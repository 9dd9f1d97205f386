import { createRoute, type RouteConfig, type z } from "@hono/zod-openapi";
import { ErrorBody } from "../../lib/contract/errors";
import type { RateLimitBucket, Scope } from "../../lib/contract/resources";
import { requireKey } from "../http/auth";
import { idempotency } from "../http/idempotency";

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorBody } },
});

const commonErrors = {
  400: error("Malformed request: invalid_parameter, unknown_parameter, parameter_missing, ..."),
  401: error("Key missing, invalid, revoked or expired."),
  403: error("ip_not_allowed, key_pending_activation or insufficient_scope."),
  429: error("rate_limit_exceeded; wait `retry-after` seconds."),
  500: error("internal_error; quote the request_id to support."),
} as const;

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
export { error as errorResponse };

type V1RouteConfig = Omit<RouteConfig, "middleware" | "security"> & {
  /** Scope the endpoint needs; null: any usable key (`/ping`). */
  scope: Scope | null;
  bucket: RateLimitBucket;
  extension?: boolean;
};

/**
 * A /v1 route: its scope and rate-limit bucket become both the auth middleware and documentation,
 * and every answer documents the shared error envelope.
 */
export function v1Route<const R extends V1RouteConfig>(config: R) {
  const { scope, bucket, extension, ...route } = config;
  return createRoute({
    ...route,
    security: [{ apiKey: [] }],
    "x-scope": scope ?? "any",
    "x-rate-limit-bucket": bucket,
    ...(extension ? { "x-extension": true } : {}),
    // Writes claim their Idempotency-Key after authentication and before body validation.
    middleware:
      route.method === "post" ? [requireKey(scope, bucket), idempotency] : [requireKey(scope, bucket)],
    ...(route.method === "post"
      ? {
          parameters: [
            {
              name: "Idempotency-Key",
              in: "header",
              required: true,
              description: "A UUID made by the client; a repeat returns the original answer (24 h).",
              schema: { type: "string", format: "uuid" },
            },
          ],
        }
      : {}),
    responses: { ...commonErrors, ...route.responses },
  } as Omit<R, "scope" | "bucket" | "extension"> & {
    middleware: ReturnType<typeof requireKey>[];
    responses: R["responses"] & typeof commonErrors;
  });
}
