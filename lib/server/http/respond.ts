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

/** A plain decimal number as the exports write amounts and counts: `12`, `-12.50`, `0.5`. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Text a spreadsheet would run as a formula (CSV injection): its first character that is not a
 * space is `=`, `+`, `-` or `@`, or it starts with a tab or a carriage return. Excel and LibreOffice
 * skip leading spaces before they look, so ` =1+1` is as live as `=1+1`. A plain number is data,
 * even when it starts with a minus sign (`-12.50`), and stays a number.
 */
export function isFormulaLike(text: string): boolean {
  return /^ *[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text);
}

/**
 * The one CSV cell writer of every export: formula-like text is defused with a leading `'` (shown
 * as text, never evaluated), and a cell holding a comma, a quote or a line break is quoted.
 */
export function csvField(value: unknown): string {
  if (value == null) return "";
  let s = String(value);
  if (isFormulaLike(s)) s = `'${s}`;
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
