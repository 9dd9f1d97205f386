import "server-only";
import { NextResponse } from "next/server";
import type { z } from "zod";

/**
 * A JSON answer parsed with its schema from `lib/shared/api` first: a field the schema does not
 * declare never leaks, and a server that drifts from what the browser expects fails here.
 */
export function answer<S extends z.ZodType>(schema: S, value: z.input<S>, status = 200): NextResponse {
  return NextResponse.json(schema.parse(value), { status });
}

/** One CSV field: quoted when it holds a comma, quote or line break; formula-leading text is defused. */
export function csvField(value: unknown): string {
  if (value == null) return "";
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s) && Number.isNaN(Number(s))) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (fields: unknown[]) => `${fields.map(csvField).join(",")}\r\n`;

/** A CSV download (a string or a stream), never cached. */
export function csvResponse(body: string | ReadableStream<Uint8Array>, fileName: string): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "cache-control": "no-store",
    },
  });
}
