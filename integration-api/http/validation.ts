import type { z } from "zod";
import { ApiError } from "../errors";

/** `tickets.3.attendee.email` → `tickets[3].attendee.email`, as the decisions write nested params. */
export function paramPath(path: PropertyKey[]): string {
  return path.reduce<string>((acc, part) => {
    if (typeof part === "number") return `${acc}[${part}]`;
    return acc ? `${acc}.${String(part)}` : String(part);
  }, "");
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let current = data;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/** Turns the first zod issue of a request part into the API's 400: unknown, missing or invalid. */
export function validationError(error: z.ZodError, input: unknown): ApiError {
  const issue = error.issues[0];
  if (issue.code === "unrecognized_keys") {
    const name = paramPath([...issue.path, issue.keys[0]]);
    return new ApiError("unknown_parameter", `Unknown parameter: ${name}.`, name);
  }
  const name = paramPath(issue.path);
  // A required field that is absent: zod reports invalid_type for most schemas, invalid_value for
  // literals and enums (`decision`, `payment_method`); both are a missing parameter.
  if (
    valueAt(input, issue.path) === undefined &&
    (issue.code === "invalid_type" || (issue.code === "invalid_value" && issue.path.length > 0))
  ) {
    return new ApiError("parameter_missing", `Missing required parameter: ${name}.`, name || undefined);
  }
  const message =
    issue.code === "custom" || issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
  return new ApiError("invalid_parameter", name ? message : issue.message, name || undefined);
}

/** The zod-openapi default hook: throws so the one error handler answers. */
export const validationHook = (result: { success: boolean; error?: z.ZodError; data?: unknown }) => {
  if (!result.success && result.error) throw validationError(result.error, result.data);
};
