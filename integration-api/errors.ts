import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { type ErrorBody, type ErrorCode, errorCatalog } from "../lib/contract/errors";

/** The one error class of the service: a code from the catalog, a message and the field at fault. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorBody["error"]["type"];

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    /** Extra response headers, e.g. retry-after on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorCatalog[code].status;
    this.type = errorCatalog[code].type;
  }
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: err.message,
      ...(err.param === undefined ? {} : { param: err.param }),
      request_id: requestId,
    },
  };
}

export type ErrorLogger = (err: unknown, requestId: string) => void;

function carriesBody(contentLength: string | undefined, transferEncoding: string | undefined) {
  return (contentLength !== undefined && contentLength !== "0") || transferEncoding !== undefined;
}

/**
 * The single place errors become responses. Anything that is not an ApiError is logged with its
 * request id and answered as a bare 500: no message, no stack.
 */
export function createErrorHandler(log: ErrorLogger): ErrorHandler {
  return (err, c) => {
    const requestId = c.get("requestId" as never) as string;
    let apiError: ApiError;
    if (err instanceof ApiError) {
      apiError = err;
    } else if (err instanceof HTTPException && err.status === 400) {
      // Hono's body parsers throw this for a body that is not valid JSON.
      apiError = new ApiError("invalid_json", "The request body is not valid JSON.");
    } else if (err instanceof HTTPException && err.status === 415) {
      apiError = new ApiError("unsupported_media_type", "The request body must be application/json.");
    } else if (err instanceof HTTPException && err.status === 413) {
      apiError = new ApiError("request_too_large", "The request body is larger than 2 MiB.");
    } else {
      log(err, requestId);
      apiError = new ApiError(
        "internal_error",
        "An internal error occurred. Quote the request_id to support.",
      );
    }
    for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
    // An error may be answered before the request body was read (413, 401, 415...). The server
    // then drops that connection soon after, so it tells the client not to reuse it: a client that
    // did would see its next request fail with a closed socket.
    if (carriesBody(c.req.header("content-length"), c.req.header("transfer-encoding"))) {
      c.header("Connection", "close");
    }
    return c.json(errorBody(apiError, requestId), apiError.status as 400);
  };
}
