import { z } from "zod";
import { Ticket, Topup, TopupBonusQuote, Transaction, Wristband } from "@/lib/contract/resources";
import { GateInfo } from "./gate";
import { IMPORT_MAX_BYTES } from "./limits";
import { CodeParam, DeskName, IdempotencyKey, RecordId, typedText } from "./params";

/** Answers of the staff tools' route handlers, declared once (server and browser parse them). */

export { Ticket, Topup, TopupBonusQuote, Transaction, Wristband } from "@/lib/contract/resources";

/**
 * GET /api/tickets/{code}: the ticket, live, with what its verdict needs (the zones its type opens:
 * null when the type is not mirrored). POST …/check-in and …/cancel answer `{ ticket }`.
 */
export const TicketView = z.object({
  ticket: Ticket,
  timeZone: z.string(),
  gate: GateInfo,
  typeZoneIds: z.array(z.string()).nullable(),
});
export type TicketView = z.infer<typeof TicketView>;
export const TicketAnswer = z.object({ ticket: Ticket });

/** GET /api/tickets: one page of the live list. */
export const TicketListView = z.object({
  data: z.array(Ticket),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
  /** The event's time zone (every time is shown in it). */
  timeZone: z.string(),
});
export type TicketListView = z.infer<typeof TicketListView>;

/** GET /api/wristbands/{code}: the wristband, live, with what its verdict needs (`gate`). */
export const WristbandView = z.object({
  wristband: Wristband,
  currency: z.string(),
  timeZone: z.string(),
  gate: GateInfo,
  /** Top-ups of this wristband from the mirror (newest first). */
  topups: z.array(Topup),
});
export type WristbandView = z.infer<typeof WristbandView>;

/** GET /api/wristbands/{code}/sales */
export const SalesPage = z.object({
  data: z.array(Transaction),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export type SalesPage = z.infer<typeof SalesPage>;

/** GET /api/desk/quote */
export const DeskQuote = z.object({ quote: TopupBonusQuote.shape.data, currency: z.string() });
export type DeskQuote = z.infer<typeof DeskQuote>;

/** POST /api/desk/topups: the quoted bonus is sent along (a changed one is 409 bonus_mismatch). */
export const DeskBody = z.object({
  code: CodeParam,
  amount: z
    .number()
    .int()
    .min(1, "The amount must be at least 0.01.")
    .max(999999, "The amount is too large."),
  payment_method: z.enum(["card", "cash", "online"]),
  bonus_amount: z.number().int().min(0).max(999999).optional(),
  bonus_rule: RecordId.nullable().optional(),
  idempotency_key: IdempotencyKey,
  desk: DeskName,
});
export type DeskBody = z.infer<typeof DeskBody>;
/** POST /api/desk/withdrawals: a refund of paid balance, no bonus. */
export const WithdrawalBody = DeskBody.omit({ bonus_amount: true, bonus_rule: true });

/** POST /api/desk/topups and /api/desk/withdrawals */
export const DeskAnswer = z.object({ topup: Topup });

/** GET /api/review: the pending_review pairs, grouped by the ticket they compete for. */
export const ReviewPair = z.object({
  ticket_code: z.string().nullable(),
  attendee: z.string().nullable(),
  /** The earliest time one of its wristbands went to review. */
  since: z.string(),
  members: z.array(Wristband),
});
export type ReviewPair = z.infer<typeof ReviewPair>;
export const ReviewView = z.object({
  pairs: z.array(ReviewPair),
  currency: z.string(),
  timeZone: z.string(),
  refreshedAt: z.string(),
});
export type ReviewView = z.infer<typeof ReviewView>;

/** POST /api/review/{code}/keep */
export const KeepAnswer = z.object({ wristband: Wristband });

export const RowError = z.object({
  /** 1-based line of the file (the header is line 1). */
  line: z.number(),
  column: z.string().nullable(),
  message: z.string(),
});
export type RowError = z.infer<typeof RowError>;

/** POST /api/import/validate */
export const ImportValidation = z.union([
  z.object({ ok: z.literal(true), rows: z.number() }),
  z.object({ ok: z.literal(false), rows: z.number(), errors: z.array(RowError) }),
]);
export type ImportValidation = z.infer<typeof ImportValidation>;

/** The error an upstream answered with, as stored and shown (status 0: no answer). */
export const ErrorInfo = z.object({
  status: z.number(),
  code: z.string(),
  message: z.string(),
  request_id: z.string().nullable(),
});
export type ErrorInfo = z.infer<typeof ErrorInfo>;

export const ImportChunk = z.object({
  seq: z.number(),
  first_row: z.number(),
  row_count: z.number(),
  status: z.enum(["pending", "sent", "failed"]),
  attempts: z.number(),
  created_count: z.number().nullable(),
  idempotency_key: z.string(),
  upstream_request_id: z.string().nullable(),
  last_error: ErrorInfo.nullable(),
});
export type ImportChunk = z.infer<typeof ImportChunk>;

export const ImportJob = z.object({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  username: z.string(),
  file_name: z.string(),
  total_rows: z.number(),
  status: z.enum(["pending", "running", "failed", "completed"]),
  chunks: z.array(ImportChunk),
  sent_rows: z.number(),
  created_tickets: z.number(),
});
export type ImportJob = z.infer<typeof ImportJob>;
export const ImportJobAnswer = z.object({ job: ImportJob });
export const ImportJobList = z.object({ data: z.array(ImportJob) });

/** GET /api/audit: newest first, `next_before` pages on. */
export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  username: z.string(),
  role: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  upstream_request_id: z.string().nullable(),
  outcome: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = z.object({
  data: z.array(AuditEntry),
  next_before: z.string().nullable(),
  timeZone: z.string(),
});
export type AuditPage = z.infer<typeof AuditPage>;

/** POST /api/import and /api/import/validate: the file's name and its text (its size is the body's, IMPORT_MAX_BYTES). */
export const ImportBody = z.object({
  file_name: typedText({ min: 1, max: 200 }),
  csv: typedText({ max: IMPORT_MAX_BYTES, multiline: true }),
});
export type ImportBody = z.infer<typeof ImportBody>;

/** How an import's body is read: up to IMPORT_MAX_BYTES, a larger one answered 413 with the limit. */
export const IMPORT_BODY_LIMIT = { maxBytes: IMPORT_MAX_BYTES, what: "The import" };

/** POST /api/tickets/{code}/cancel and /api/review/{code}/keep: the form's key only. */
export const KeyOnlyBody = z.object({ idempotency_key: IdempotencyKey });

/** POST /api/tickets/{code}/check-in: the wristband linked (entered or scanned). */
export const CheckInBody = z.object({
  nfc: CodeParam,
  uhf: CodeParam.optional(),
  idempotency_key: IdempotencyKey,
  /** "Check in anyway" on a day the ticket is not valid for (tickets.checkin_override). */
  override: z.boolean().optional(),
});
