import type { z } from "zod";
import { fetchJson } from "./client";
import type { AnswerOf, CallInput, EndpointSpec } from "./endpoints/define";
import { ConsoleError, ErrorEnvelope } from "./errors";

/**
 * The browser's one way to reach the console's own API: the URL from the endpoint's declaration,
 * the answer parsed with its declared schema, an error answer turned back into its ConsoleError.
 */

type QueryValue = string | number | boolean | null | undefined;

/** The endpoint's URL: `{param}` segments filled (encoded), the query's set values appended. */
export function urlOf<E extends EndpointSpec>(endpoint: E, input: Omit<CallInput<E>, "body">): string;
export function urlOf(
  endpoint: EndpointSpec,
  input: { params?: Record<string, string>; query?: Record<string, QueryValue> } = {},
): string {
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = input.params?.[name];
    if (value === undefined) throw new Error(`${endpoint.name}: the path parameter ${name} is missing.`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  // Empty values are left out: the server reads an empty filter as no filter.
  for (const [name, value] of Object.entries(input.query ?? {}))
    if (value !== null && value !== undefined && value !== "") search.set(name, String(value));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Calls an endpoint; a write sends its body (or `{}`) as JSON. */
export async function call<E extends EndpointSpec>(endpoint: E, input: CallInput<E>): Promise<AnswerOf<E>>;
export async function call(
  endpoint: EndpointSpec,
  input: { params?: Record<string, string>; query?: Record<string, QueryValue>; body?: unknown } = {},
): Promise<unknown> {
  const url = urlOf(endpoint, input as Omit<CallInput<EndpointSpec>, "body">);
  const init: RequestInit =
    endpoint.method === "GET"
      ? {}
      : {
          method: endpoint.method,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(input.body ?? {}),
        };
  if (typeof endpoint.answer !== "string") return fetchJson(url, endpoint.answer as z.ZodType, init);
  return fetchFile(url, init);
}

/** A download (CSV, PDF): the Response as is when it succeeded, else the error it carries. */
async function fetchFile(url: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    throw new ConsoleError("unavailable", "The console cannot be reached. Nothing was lost: try again.", {
      status: 0,
    });
  }
  if (res.ok) return res;
  const envelope = ErrorEnvelope.safeParse(await res.json().catch(() => null));
  if (!envelope.success)
    throw new ConsoleError("unavailable", `The console answered ${res.status}.`, { status: res.status });
  const e = envelope.data.error;
  throw new ConsoleError(e.code, e.message, { status: res.status, param: e.param, requestId: e.request_id });
}
