import "server-only";
import { z } from "zod";
import type { Queryable } from "@/lib/db/db";
import { HttpError } from "@/lib/server/guard";

/** The Idempotency-Key the browser created when its form opened (a UUID, kept across retries). */
export const IdempotencyKey = z.uuid({ message: "idempotency_key must be a UUID." });

/** A JSON body validated with zod, else 400 with the first problem in plain words. */
export async function readBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  let json: unknown;
  try {
    json = await request.json();
  } catch {
    throw new HttpError(400, "invalid_json", "The request body is not JSON.");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    throw new HttpError(400, "invalid_request", `${where}${issue.message}`);
  }
  return parsed.data;
}

/** The event currency from the mirror (EUR until the first sync). */
export async function eventCurrency(db: Queryable): Promise<string> {
  const [row] = await db.query<{ currency: string }>("select currency from m_event limit 1");
  return row?.currency ?? "EUR";
}

/** A code from a URL segment or query: letters, digits, - and _, as the API accepts. */
export const CodeParam = z
  .string()
  .trim()
  .min(1, "Enter a code.")
  .max(64, "This code is too long.")
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  .regex(/^[^\u0000-\u001f\u007f]+$/, "This code has characters no code has.");

export function codeParam(value: string | null | undefined): string {
  const parsed = CodeParam.safeParse(value ?? "");
  if (!parsed.success) throw new HttpError(400, "invalid_code", parsed.error.issues[0]!.message);
  return parsed.data;
}
