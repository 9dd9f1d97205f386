import type { z } from "zod";
import { ConsoleError, ErrorEnvelope } from "./errors";

type Init = RequestInit | undefined;

/**
 * Fetches one of the console's own route handlers. A success is parsed with the answer's schema
 * (from this folder), so a drift between server and browser is an error, never a silent cast; an
 * error answer becomes the ConsoleError it was on the server.
 */
export async function fetchJson<S extends z.ZodType>(
  url: string,
  schema: S,
  init?: Init,
): Promise<z.output<S>> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch {
    throw new ConsoleError("unavailable", "The console cannot be reached. Nothing was lost: try again.", {
      status: 0,
    });
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok || body === null) {
    const envelope = ErrorEnvelope.safeParse(body);
    if (envelope.success) {
      const e = envelope.data.error;
      const retryAfter = Number(res.headers.get("retry-after"));
      throw new ConsoleError(e.code, e.message, {
        status: res.status,
        param: e.param,
        requestId: e.request_id,
        ...(retryAfter > 0 ? { retryAfter } : {}),
      });
    }
    throw new ConsoleError("unavailable", `The console answered ${res.status}.`, { status: res.status });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join(".") || "(root)";
    throw new ConsoleError("unavailable", `The console's answer has an unexpected shape (${where}).`, {
      status: res.status,
    });
  }
  return parsed.data;
}

/** POSTs JSON to a route handler and parses its answer. */
export function postJson<S extends z.ZodType>(url: string, body: unknown, schema: S): Promise<z.output<S>> {
  return fetchJson(url, schema, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}
