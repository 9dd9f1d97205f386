import { DateTime } from "luxon";
import { TicketStatus, TopupDirection, WristbandStatus } from "./resources";
import { z } from "./zod";

/**
 * Query and path parameters of every endpoint. Every query object is strict, so a parameter the
 * endpoint does not know is rejected (`unknown_parameter`) instead of silently ignored.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** `2026-07-10` (00:00 UTC) or a date-time with an offset; inclusive lower bound. */
export function parseInstant(value: string): Date | null {
  if (!DATE_ONLY.test(value) && !DATE_TIME.test(value)) return null;
  const parsed = DATE_ONLY.test(value)
    ? DateTime.fromISO(value, { zone: "utc" })
    : DateTime.fromISO(value, { setZone: true });
  return parsed.isValid ? parsed.toJSDate() : null;
}

const instant = (name: string) =>
  z
    .string()
    .transform((value, ctx) => {
      const parsed = parseInstant(value);
      if (!parsed) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be a date (2026-07-10) or an ISO 8601 date-time with offset.`,
        });
        return z.NEVER;
      }
      return parsed;
    })
    .optional()
    .openapi({
      param: { name, in: "query" },
      type: "string",
      description: "ISO 8601 date (00:00 UTC) or date-time with offset; inclusive.",
      example: "2026-07-10T18:00:00Z",
    });

const idParam = (name: string, description: string) =>
  z
    .string()
    .regex(/^[0-9a-fA-F]{24}$/, `${name} must be 24 hexadecimal characters.`)
    .transform((v) => v.toLowerCase())
    .optional()
    .openapi({ param: { name, in: "query" }, type: "string", pattern: "^[0-9a-fA-F]{24}$", description });

export const PaginationQuery = {
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, "limit must be an integer from 1 to 200.")
    .transform(Number)
    .refine((n) => n >= 1 && n <= 200, "limit must be an integer from 1 to 200.")
    .optional()
    .openapi({
      param: { name: "limit", in: "query" },
      type: "integer",
      minimum: 1,
      maximum: 200,
      default: 50,
    }),
  starting_after: idParam(
    "starting_after",
    "The `next_cursor` of the previous page: items with a greater id.",
  ),
};

const dayFilter = idParam("day_id", "Only records of this event day (from `GET /days`).");

export const TicketListQuery = z
  .object({
    ...PaginationQuery,
    status: TicketStatus.optional().openapi({ param: { name: "status", in: "query" } }),
    updated_since: instant("updated_since"),
  })
  .strict();

export const WristbandListQuery = z
  .object({
    ...PaginationQuery,
    status: WristbandStatus.optional().openapi({ param: { name: "status", in: "query" } }),
    updated_since: instant("updated_since"),
  })
  .strict();

export const SalesListQuery = z
  .object({ ...PaginationQuery, day_id: dayFilter, since: instant("since") })
  .strict();

export const TopupListQuery = z
  .object({
    ...PaginationQuery,
    day_id: dayFilter,
    since: instant("since"),
    direction: TopupDirection.optional().openapi({ param: { name: "direction", in: "query" } }),
  })
  .strict();

export const CheckinListQuery = z
  .object({
    ...PaginationQuery,
    day_id: dayFilter,
    since: instant("since"),
    zone_id: idParam("zone_id", "Only scans at this zone."),
  })
  .strict();

export const SalesSummaryQuery = z.object({ day_id: dayFilter }).strict();

export const NoQuery = z.object({}).strict();

export const QuoteQuery = z
  .object({
    amounts: z
      .string()
      .regex(/^[0-9]{1,6}(,[0-9]{1,6}){0,19}$/, "amounts must be 1 to 20 comma-separated amounts in cents.")
      .transform((v) => v.split(",").map(Number))
      .openapi({
        param: { name: "amounts", in: "query", required: true },
        type: "string",
        pattern: "^[0-9]{1,6}(,[0-9]{1,6}){0,19}$",
        example: "2000,5000",
      }),
    code: z
      .string()
      .min(1, "code must not be empty.")
      .max(128, "code is too long.")
      .optional()
      .openapi({ param: { name: "code", in: "query" }, description: "Ticket or wristband code." }),
    pending_rules: z
      .string()
      .regex(
        /^[0-9a-fA-F]{24}(,[0-9a-fA-F]{24}){0,49}$/,
        "pending_rules must be up to 50 comma-separated rule ids.",
      )
      .transform((v) => v.toLowerCase().split(","))
      .optional()
      .openapi({
        param: { name: "pending_rules", in: "query" },
        type: "string",
        pattern: "^[0-9a-fA-F]{24}(,[0-9a-fA-F]{24}){0,49}$",
      }),
  })
  .strict();

const codeParam = (description: string) =>
  z.object({
    code: z
      .string()
      .min(1)
      .max(256)
      .openapi({ param: { name: "code", in: "path" }, description }),
  });
export const TicketCodeParam = codeParam("The ticket code, in any case (spaces around it are ignored).");
export const WristbandCodeParam = codeParam(
  "The wristband NFC or UHF code, in any case (spaces around it are ignored).",
);
