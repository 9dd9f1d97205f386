import type { z } from "zod";
import type { Permission } from "../../permissions";
import type { PushTopic } from "../push";

/**
 * One endpoint of the console's own API, declared once: the route handler (`handle`), the
 * browser's `call`/`useEndpoint`/`useWrite`, the tests and the OpenAPI document all read it.
 */

export type Method = "GET" | "POST" | "PUT" | "DELETE";
/** Who may call it: a permission of the one table, anyone (sign-in), or any signed-in user. */
export type Access = Permission | "public" | "signed-in";
/**
 * A JSON answer's schema, or a download/page/stream made on the server (the handler returns a
 * Response): "event-stream" is the push stream (server-sent events).
 */
export type AnswerKind = z.ZodType | "csv" | "pdf" | "html" | "event-stream";
/**
 * How a read refreshes in the browser: `live` polls every LIVE_REFRESH_MS (and on focus), `lookup`
 * reads the upstream live and never polls nor refetches on focus, `once` is read once.
 */
export type Refresh = "live" | "lookup" | "once";

export interface EndpointSpec {
  /** Unique, dotted: `desk.topup`. */
  name: string;
  summary: string;
  method: Method;
  /** `/api/desk/topups`, or with path parameters `/api/tickets/{code}`. */
  path: `/api/${string}`;
  permission: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A body larger than the default BODY_MAX_BYTES (an import). */
  bodyLimit?: { maxBytes: number; what: string };
  answer: AnswerKind;
  /** The success status (default 200). */
  status?: number;
  refresh: Refresh;
  /**
   * A `live` read: the push stream's topics that refresh it at once (the poll stays the floor);
   * `[]` says it is only polled. Checked by app/api/endpoints.test.ts.
   */
  pushedBy?: readonly PushTopic[];
}

/** Declares an endpoint; its literal types (method, path, schemas) are kept for the callers. */
export function endpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

type Output<T> = T extends z.ZodType ? z.output<T> : undefined;
type Input<T> = T extends z.ZodType ? z.input<T> : undefined;

/** What the server's handler receives, parsed. */
export type ParamsOf<E extends EndpointSpec> = Output<E["params"]>;
export type QueryOf<E extends EndpointSpec> = Output<E["query"]>;
export type BodyOf<E extends EndpointSpec> = Output<E["body"]>;

/** What the browser's answer is: the parsed JSON, or the raw Response of a download. */
export type AnswerOf<E extends EndpointSpec> = E["answer"] extends z.ZodType
  ? z.output<E["answer"]>
  : Response;

/** What the browser sends: each part only when the endpoint declares it. */
export type CallInput<E extends EndpointSpec> = (E["params"] extends z.ZodType
  ? { params: Input<E["params"]> }
  : { params?: undefined }) &
  (E["query"] extends z.ZodType ? { query?: Input<E["query"]> } : { query?: undefined }) &
  (E["body"] extends z.ZodType ? { body: Input<E["body"]> } : { body?: undefined });

/** `{code}` segments of a declared path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}
