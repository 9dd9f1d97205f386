import "server-only";
import type { z } from "zod";
import { ConsoleError } from "@/lib/shared/api/errors";
import { BODY_MAX_BYTES, tooLargeMessage } from "@/lib/shared/api/limits";

/**
 * The one way route handlers read input: a zod schema for the body, the query or the path, and one
 * error code per fault — `unsupported_media_type` (415) for a body that is not declared JSON,
 * `payload_too_large` (413) past the body's limit, `invalid_json` for a body that is not JSON,
 * `invalid_parameter` (with `param`, the field) for anything that fails its schema.
 */

function invalid(error: z.ZodError): ConsoleError {
  const issue = error.issues[0]!;
  const param = issue.path.length ? issue.path.join(".") : undefined;
  return new ConsoleError("invalid_parameter", param ? `${param}: ${issue.message}` : issue.message, {
    param,
  });
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

/** Whether a Content-Type header names JSON (`application/json`, any parameters). */
export function isJsonType(contentType: string | null): boolean {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

export interface BodyLimit {
  /** The most bytes the body may have (default BODY_MAX_BYTES). */
  maxBytes?: number;
  /** What is limited, for the 413's message (default "The request body"). */
  what?: string;
}

/**
 * The body's text, counted while it streams in: past `maxBytes` the reading stops and the answer
 * is 413 with the limit — before any framework limit could cut the body short.
 */
async function readLimitedText(request: Request, limit: BodyLimit): Promise<string> {
  const maxBytes = limit.maxBytes ?? BODY_MAX_BYTES;
  const tooLarge = (size?: number) =>
    new ConsoleError(
      "payload_too_large",
      tooLargeMessage(limit.what ?? "The request body", size ?? null, maxBytes),
    );
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON body (declared `application/json`, within its size limit) validated with its schema. */
export async function readBody<T>(request: Request, schema: z.ZodType<T>, limit: BodyLimit = {}): Promise<T> {
  if (!isJsonType(request.headers.get("content-type")))
    throw new ConsoleError(
      "unsupported_media_type",
      "Send the body as JSON (Content-Type: application/json).",
    );
  const text = await readLimitedText(request, limit);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConsoleError("invalid_json", "The request body is not JSON.");
  }
  return parse(schema, json);
}

/** The query string as an object (empty values dropped: an empty filter is no filter), validated. */
export function readQuery<T>(request: Request, schema: z.ZodType<T>): T {
  const entries = [...new URL(request.url).searchParams].filter(([, v]) => v !== "");
  return parse(schema, Object.fromEntries(entries));
}

/** Path segments (`params` of a dynamic route), validated. */
export function readParams<T>(params: unknown, schema: z.ZodType<T>): T {
  return parse(schema, params);
}
