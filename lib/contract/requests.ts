import { Id, Ref, Timestamp, WristbandStatus } from "./resources";
import { z } from "./zod";

/** Bodies of the write operations and the resources only they return. Every body is strict. */

/**
 * Text the store can keep: PostgreSQL text holds no NUL character, and an unpaired UTF-16
 * surrogate cannot be encoded at all. Such a field is malformed (400), never an internal error.
 */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (s: string) => !s.includes("\u0000") && !UNPAIRED_SURROGATE.test(s);
const text = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine(storable, "Text must not contain NUL characters or unpaired surrogates.");

const code = text(1, 64);
const deviceId = text(1, 64);

export const NewTicket = z
  .object({
    code: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{3,63}$/, "code must be 4 to 64 letters, digits, - or _.")
      .optional()
      .openapi({
        description:
          "Generated when absent. Unique across the event whatever its case (409 ticket_code_taken); stored as issued.",
      }),
    ticket_type_id: Id,
    attendee: z
      .object({
        name: text(1, 200),
        email: z.email().max(254),
        document: z
          .object({
            type: text(1, 32),
            number: text(4, 64),
          })
          .strict()
          .optional(),
        birth_date: z.iso.date().optional().openapi({ description: "Kept, never returned." }),
      })
      .strict(),
    valid_days: z.array(Id).min(1).max(100),
    extra_zones: z.array(Id).max(100).optional(),
  })
  .strict()
  .openapi("NewTicket");
export type NewTicket = z.infer<typeof NewTicket>;

export const MAX_TICKETS_PER_BATCH = 500;

export const CreateTicketsRequest = z
  .object({
    // The 1..500 bound is checked by the service, so that an oversized batch is `batch_too_large`.
    tickets: z.array(NewTicket).openapi({ description: "1 to 500 tickets; all are created or none." }),
  })
  .strict()
  .openapi("CreateTicketsRequest");

export const CheckInRequest = z
  .object({
    wristband: z
      .object({
        nfc: code.openapi({ description: "NFC code of the wristband to link (created if new)." }),
        uhf: code.optional(),
      })
      .strict(),
    device_id: deviceId.optional(),
    occurred_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "When the gate accredited the ticket (offline gates); default now." }),
  })
  .strict()
  .openapi("CheckInRequest");
export type CheckInRequest = z.infer<typeof CheckInRequest>;

export const AccessCheckRequest = z
  .object({
    code: code.openapi({ description: "Wristband NFC/UHF or ticket code." }),
    zone_id: Id,
    device_id: deviceId.optional(),
  })
  .strict()
  .openapi("AccessCheckRequest");
export type AccessCheckRequest = z.infer<typeof AccessCheckRequest>;

export const AccessCheck = z
  .object({
    object: z.literal("access_check"),
    allowed: z.boolean(),
    reason: z.string().nullable().openapi({
      description:
        "Null when allowed; else zone_not_allowed, day_not_valid, unknown_code or a wristband status.",
    }),
    zone: Ref,
    wristband: z.object({ id: Id, nfc: z.string(), status: WristbandStatus }).nullable(),
    checked_at: Timestamp,
  })
  .openapi("AccessCheck");
export type AccessCheck = z.infer<typeof AccessCheck>;

export const CreateTopupRequest = z
  .object({
    code: code.openapi({ description: "Wristband NFC/UHF code, or a ticket code (its wristband)." }),
    amount: z.number().int().min(1).max(999999),
    direction: z.enum(["topup", "withdraw"]).optional().openapi({ default: "topup" }),
    payment_method: z.enum(["card", "cash", "online"]),
    bonus_amount: z.number().int().min(0).max(999999).optional().openapi({
      description: "The quoted gift; must equal the server's fresh quote (else 409 bonus_mismatch).",
    }),
    bonus_rule: Id.nullable()
      .optional()
      .openapi({ description: "The quoted rule id (null or absent: none)." }),
    device_id: deviceId.optional().openapi({
      description: "[ext] The desk or terminal that took the money (the records' `device_id`).",
    }),
  })
  .strict()
  .openapi("CreateTopupRequest");
export type CreateTopupRequest = z.infer<typeof CreateTopupRequest>;

export const ReviewRequest = z
  .object({ decision: z.literal("keep") })
  .strict()
  .openapi("ReviewRequest");
export type ReviewRequest = z.infer<typeof ReviewRequest>;
