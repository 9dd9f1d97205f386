import { Environment, Id, RateLimits, Restrictions, Scope, Timestamp } from "./resources";
import { z } from "./zod";

/** The organiser's key administration surface (outside /v1, behind the admin token). */

export const CreateKeyRequest = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: z.array(Scope).min(1).max(9),
    restrictions: z
      .object({
        ticket_type_ids: z.array(Id).max(100).default([]),
        day_ids: z.array(Id).max(100).default([]),
      })
      .strict()
      .optional(),
    rate_limits: RateLimits.partial().strict().optional(),
    allowed_ips: z
      .array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]))
      .max(100)
      .optional(),
    expires_at: z.iso.datetime({ offset: true }).optional(),
    /** Activate a key with write scopes right away (the organiser creating it is the administrator). */
    activate: z.boolean().optional(),
  })
  .strict()
  .openapi("CreateKeyRequest");
export type CreateKeyRequest = z.infer<typeof CreateKeyRequest>;

export const ApiKeyView = z
  .object({
    object: z.literal("api_key"),
    id: Id,
    name: z.string(),
    key_hint: z.string().openapi({ description: "First characters of the key, to recognise it." }),
    environment: Environment,
    scopes: z.array(Scope),
    restrictions: Restrictions,
    rate_limits: RateLimits,
    allowed_ips: z.array(z.string()),
    expires_at: Timestamp.nullable(),
    status: z.enum(["active", "pending_activation", "revoked", "expired"]),
    activated_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .openapi("ApiKey");
export type ApiKeyView = z.infer<typeof ApiKeyView>;

export const CreatedKey = ApiKeyView.extend({
  key: z.string().openapi({ description: "The secret key. Shown only in this response." }),
}).openapi("CreatedApiKey");
export type CreatedKey = z.infer<typeof CreatedKey>;

export const ApiKeyList = z.object({ object: z.literal("list"), data: z.array(ApiKeyView) });

export const LedgerReport = z
  .object({
    object: z.literal("ledger_report"),
    checked: z.number().int().openapi({ description: "Wristbands checked." }),
    ok: z.boolean(),
    differences: z.array(
      z.object({
        wristband_id: Id,
        nfc: z.string(),
        balance: z.number().int(),
        expected_balance: z.number().int(),
        promo_balance: z.number().int(),
        expected_promo_balance: z.number().int(),
      }),
    ),
  })
  .openapi("LedgerReport");
export type LedgerReport = z.infer<typeof LedgerReport>;
