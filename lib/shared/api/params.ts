import { z } from "zod";
import { ticketStatuses } from "@/lib/contract/resources";
import { normalizeCode } from "../codes";

/**
 * Parameters of the console's route handlers, declared once: the server validates with them
 * (`lib/server/http/input.ts`), the browser may too.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LINE_BREAK_OR_TAB = /[\t\n\r]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Text a person typed (a comment, a reason, a name): the one string type of every body field.
 * NUL and other control characters, and lone UTF-16 surrogates (not text at all: a store would
 * refuse them with a 500), are a 400 here. `multiline` allows line breaks and tabs; `trim: false`
 * keeps the text exactly as sent (an identifier matched as stored, where a space is part of it).
 */
export function typedText(options: {
  max: number;
  min?: number;
  multiline?: boolean;
  tooShort?: string;
  trim?: boolean;
}) {
  const text = options.trim === false ? z.string() : z.string().trim();
  return text
    .min(options.min ?? 0, options.tooShort ?? `at least ${options.min ?? 0} characters.`)
    .max(options.max, `at most ${options.max} characters.`)
    .refine(
      (s) => !CONTROL.test(s) && (options.multiline || !LINE_BREAK_OR_TAB.test(s)),
      "has control characters.",
    )
    .refine((s) => !LONE_SURROGATE.test(s), "is not valid text (a lone surrogate).");
}

/** Whether a string is text (no lone UTF-16 surrogate). */
const isText = (s: string) => !LONE_SURROGATE.test(s);

/**
 * A terminal's device id, as the upstream wrote it and the mirror stores it: never trimmed (a
 * leading space is part of the id, so waivers and station overrides find the terminal); tabs and
 * line breaks pass (a store keeps them), NUL, other control characters and lone surrogates do not.
 */
export const DeviceId = typedText({
  min: 1,
  max: 200,
  multiline: true,
  trim: false,
  tooShort: "Name a terminal.",
});

/**
 * A code from a URL segment, a query or a body: what a ticket, NFC or UHF code may be, normalised
 * the one way (`normalizeCode`: scanner suffixes and spaces dropped, the ticket prefix's dash and
 * NFC hex pairs mended), so every route finds what the search finds.
 */
export const CodeParam = z
  .string()
  .transform(normalizeCode)
  .pipe(
    z
      .string()
      .min(1, "Enter a code.")
      .max(64, "This code is too long.")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
      .regex(/^[^\u0000-\u001f\u007f]+$/, "This code has characters no code has.")
      .refine(isText, "This code has characters no code has."),
  );

/** GET /api/staff/search: what was typed or scanned in the header's search box (a code or a name). */
export const SearchQuery = z.object({
  q: z
    .string()
    // What a scanner appends or pastes bring (CR, LF, tab) is a space, not a fault.
    .transform((s) => s.replace(/[\r\n\t]+/g, " ").trim())
    .pipe(
      z
        .string()
        .min(1, "Type a code or a name.")
        .max(100, "This is too long for a code or a name.")
        // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
        .regex(/^[^\u0000-\u001f\u007f]+$/, "This text has characters no code or name has.")
        .refine(isText, "This text has characters no code or name has."),
    ),
});

/** An event day id. */
export const DayId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "not a valid day id.");

/**
 * The desk a top-up or withdrawal is taken at (chosen when the desk screen opens, remembered by the
 * browser): it becomes the records' `device_id`, so expected money per desk can count them.
 */
export const DeskName = z
  .string()
  .trim()
  .min(1, "Name the desk.")
  .max(40, "A desk name has at most 40 characters.")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u, "A desk name has letters, digits, spaces, '.', '_' or '-'.");

/** An upstream record id (24 hex digits). */
export const RecordId = z.string().regex(/^[0-9a-f]{24}$/, "not a valid id.");

/** The Idempotency-Key the browser created when its form opened (a UUID, kept across retries). */
export const IdempotencyKey = z.uuid({ message: "must be a UUID." });

/** An opaque page cursor of the console's own lists. */
export const Cursor = z.string().max(300, "not a valid cursor.");

/** `{ code }` of routes under `[code]`. */
export const CodeSegment = z.object({ code: CodeParam });

/** The live screens and the night: `day_id` (default: the current / latest ended night), paging. */
export const DayQuery = z.object({
  day_id: DayId.optional(),
  cursor: Cursor.optional(),
});
export const TopupsQuery = DayQuery.extend({ direction: z.enum(["topup", "withdraw"]).optional() });

/** GET /api/tickets: the live list's filters. */
export const TicketListQuery = z.object({
  status: z.enum(ticketStatuses).optional(),
  updated_since: z.iso
    .datetime({ offset: true })
    .or(z.iso.date())
    .refine((v) => {
      const t = Date.parse(v);
      return t >= Date.UTC(2000, 0, 1) && t < Date.UTC(2100, 0, 1);
    }, "a date between 2000 and 2100.")
    .optional(),
  starting_after: RecordId.optional(),
});

/** GET /api/desk/quote: the amounts on the desk's screen, for this person. */
export const DeskQuoteQuery = z.object({
  amounts: z
    .string()
    .regex(/^\d{1,6}(,\d{1,6}){0,19}$/, "a comma-separated list of up to 20 amounts in minor units.")
    .transform((s) => s.split(",").map(Number)),
  code: CodeParam.optional(),
  pending_rules: z
    .string()
    .regex(/^[0-9a-f]{24}(,[0-9a-f]{24}){0,49}$/, "a comma-separated list of bonus rule ids.")
    .transform((s) => s.split(","))
    .optional(),
});

/** GET /api/audit */
export const AuditQuery = z.object({
  before: z
    .string()
    .regex(/^\d{1,18}$/, "not an audit entry id.")
    .optional(),
});

/** GET /api/wristbands/{code}/sales */
export const SalesPageQuery = z.object({ starting_after: RecordId.optional() });

/** `{ device }` of routes under `terminals/[device]`: a terminal's device id, as stored (see DeviceId). */
export const DeviceSegment = z.object({
  device: DeviceId.refine((d) => !d.includes("/"), "This device id has characters no device id has."),
});

/** `{ id }` of routes under `alerts/[id]`. */
export const AlertSegment = z.object({ id: z.string().regex(/^[0-9]{1,18}$/, "not a valid alert id.") });

/** `{ id }` of routes under `reconciliation/signoffs/[id]`. */
export const SignoffSegment = z.object({ id: z.string().regex(/^[0-9]{1,18}$/, "not a valid sign-off id.") });
