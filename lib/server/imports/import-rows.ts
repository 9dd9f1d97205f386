import "server-only";
import Papa from "papaparse";
import { type NewTicket, NewTicket as NewTicketSchema } from "@/lib/contract/requests";
import type { RowError } from "@/lib/shared/api/staff";

export type { RowError };

/** What a CSV row may name: ticket types, days and zones, each by id or by name (days also by date). */
export interface ImportCatalog {
  ticketTypes: { id: string; name: string }[];
  days: { id: string; name: string; date: string }[];
  zones: { id: string; name: string }[];
}

export const CSV_COLUMNS = [
  "code",
  "ticket_type",
  "name",
  "email",
  "document_type",
  "document_number",
  "birth_date",
  "valid_days",
  "extra_zones",
] as const;
const REQUIRED = ["ticket_type", "name", "email", "valid_days"] as const;

export type CsvValidation =
  | { ok: true; tickets: NewTicket[] }
  | { ok: false; errors: RowError[]; rows: number };

const MAX_ERRORS = 200;

function lookup<T extends { id: string; name: string }>(list: T[], value: string, extra?: (t: T) => string) {
  const v = value.trim().toLowerCase();
  return list.find((t) => t.id === value.trim() || t.name.toLowerCase() === v || extra?.(t) === value.trim());
}

/**
 * Parses and validates a whole ticket CSV: every row becomes a NewTicket (the API's own schema) or
 * row-level errors. Nothing is valid unless every row is: an import is all or nothing.
 */
export function validateTicketCsv(text: string, catalog: ImportCatalog): CsvValidation {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  const errors: RowError[] = [];
  const push = (e: RowError) => {
    if (errors.length < MAX_ERRORS) errors.push(e);
  };
  const headers = parsed.meta.fields ?? [];
  const missing = REQUIRED.filter((c) => !headers.includes(c));
  if (missing.length) {
    return {
      ok: false,
      rows: 0,
      errors: [
        {
          line: 1,
          column: null,
          message: `Missing column(s): ${missing.join(", ")}. Expected: ${CSV_COLUMNS.join(", ")}.`,
        },
      ],
    };
  }
  const unknown = headers.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) push({ line: 1, column: null, message: `Unknown column(s): ${unknown.join(", ")}.` });
  for (const e of parsed.errors) {
    push({ line: (e.row ?? 0) + 2, column: null, message: `The CSV is malformed here: ${e.message}.` });
  }
  if (parsed.data.length === 0) push({ line: 2, column: null, message: "The file has no rows." });

  const tickets: NewTicket[] = [];
  const seenCodes = new Map<string, number>();
  parsed.data.forEach((row, index) => {
    const line = index + 2;
    const cell = (c: string) => (row[c] ?? "").trim();
    let rowOk = true;
    const fail = (column: string | null, message: string) => {
      rowOk = false;
      push({ line, column, message });
    };
    const type = cell("ticket_type") ? lookup(catalog.ticketTypes, cell("ticket_type")) : undefined;
    if (!cell("ticket_type")) fail("ticket_type", "The ticket type is empty.");
    else if (!type) fail("ticket_type", `Unknown ticket type "${cell("ticket_type")}".`);
    const dayIds: string[] = [];
    for (const d of cell("valid_days")
      .split(/[;|]/)
      .map((s) => s.trim())
      .filter(Boolean)) {
      const day = lookup(catalog.days, d, (x) => x.date);
      if (day) dayIds.push(day.id);
      else fail("valid_days", `Unknown day "${d}".`);
    }
    if (!cell("valid_days")) fail("valid_days", "At least one valid day is needed.");
    const zoneIds: string[] = [];
    for (const z of cell("extra_zones")
      .split(/[;|]/)
      .map((s) => s.trim())
      .filter(Boolean)) {
      const zone = lookup(catalog.zones, z);
      if (zone) zoneIds.push(zone.id);
      else fail("extra_zones", `Unknown zone "${z}".`);
    }
    const code = cell("code");
    if (code) {
      const first = seenCodes.get(code);
      if (first !== undefined) fail("code", `The code ${code} is also on line ${first}.`);
      else seenCodes.set(code, line);
    }
    if ((cell("document_type") === "") !== (cell("document_number") === ""))
      fail("document_number", "A document needs both its type and its number.");
    const candidate = {
      ...(code ? { code } : {}),
      ticket_type_id: type?.id ?? "000000000000000000000000",
      attendee: {
        name: cell("name"),
        email: cell("email"),
        ...(cell("document_type") && cell("document_number")
          ? { document: { type: cell("document_type"), number: cell("document_number") } }
          : {}),
        ...(cell("birth_date") ? { birth_date: cell("birth_date") } : {}),
      },
      valid_days: [...new Set(dayIds)],
      ...(zoneIds.length ? { extra_zones: [...new Set(zoneIds)] } : {}),
    };
    const result = NewTicketSchema.safeParse(candidate);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const path = issue.path.join(".");
        if (path.startsWith("valid_days") && dayIds.length === 0) continue; // reported above
        const column =
          path === "attendee.name"
            ? "name"
            : path === "attendee.email"
              ? "email"
              : path === "attendee.birth_date"
                ? "birth_date"
                : path.startsWith("attendee.document")
                  ? "document_number"
                  : path || null;
        fail(column, column === "email" ? `"${cell("email")}" is not an email address.` : issue.message);
      }
    }
    if (rowOk && result.success) tickets.push(result.data);
  });
  if (errors.length) return { ok: false, errors, rows: parsed.data.length };
  return { ok: true, tickets };
}
