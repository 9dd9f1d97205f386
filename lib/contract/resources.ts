import { z } from "./zod";

/** Schemas of every resource the Integration API v1 returns: the single source of their types. */

export const Id = z
  .string()
  .regex(/^[0-9a-f]{24}$/)
  .openapi({ example: "6740b1c2a1b2c3d4e5000001" });
export const Timestamp = z.string().openapi({ format: "date-time", example: "2026-07-10T22:00:00.000Z" });
export const Cents = z.number().int().openapi({ description: "Amount in cents of the event currency." });

export const Ref = z.object({ id: Id, name: z.string() }).openapi("Ref");
export type Ref = z.infer<typeof Ref>;

export const scopes = [
  "event.read",
  "tickets.read",
  "tickets.write",
  "checkins.read",
  "checkins.write",
  "cashless.read",
  "cashless.write",
  "reports.read",
  "*",
] as const;
export const Scope = z.enum(scopes);
export type Scope = z.infer<typeof Scope>;
/** Scopes that make a key start disabled until the organiser activates it. */
export const writeScopes: readonly Scope[] = ["tickets.write", "checkins.write", "cashless.write", "*"];

export const rateLimitBuckets = ["read", "write", "checkin", "access"] as const;
export type RateLimitBucket = (typeof rateLimitBuckets)[number];
export const RateLimits = z
  .object({
    read: z.number().int().min(1).max(100000),
    write: z.number().int().min(1).max(100000),
    checkin: z.number().int().min(1).max(100000),
    access: z.number().int().min(1).max(100000),
  })
  .openapi("RateLimits");
export type RateLimits = z.infer<typeof RateLimits>;
export const defaultRateLimits: RateLimits = { read: 120, write: 20, checkin: 60, access: 120 };

export const Restrictions = z
  .object({
    ticket_type_ids: z.array(Id).openapi({ description: "Empty: every ticket type." }),
    day_ids: z.array(Id).openapi({ description: "Empty: every day." }),
  })
  .openapi("Restrictions");
export type Restrictions = z.infer<typeof Restrictions>;

export const Environment = z.enum(["live", "test"]);
export type Environment = z.infer<typeof Environment>;

export const ListEnvelope = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    object: z.literal("list"),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: Id.nullable(),
  });
/** Days, zones and ticket types: a list without pagination. */
export const PlainList = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ object: z.literal("list"), data: z.array(item) });

export const Event = z
  .object({
    object: z.literal("event"),
    id: Id,
    name: z.string(),
    currency: z.string().length(3).openapi({ example: "EUR", description: "ISO 4217" }),
    time_zone: z.string().openapi({ example: "Europe/Madrid", description: "IANA time zone" }),
    starts_at: Timestamp,
    ends_at: Timestamp,
    environment: Environment,
  })
  .openapi("Event");
export type Event = z.infer<typeof Event>;

export const Day = z
  .object({
    object: z.literal("day"),
    id: Id,
    name: z.string(),
    date: z.string().openapi({ example: "2026-07-10", description: "Local date the day starts on." }),
    starts_at: Timestamp,
    ends_at: Timestamp,
  })
  .openapi("Day");
export type Day = z.infer<typeof Day>;

export const Zone = z.object({ object: z.literal("zone"), id: Id, name: z.string() }).openapi("Zone");
export type Zone = z.infer<typeof Zone>;

export const TicketType = z
  .object({
    object: z.literal("ticket_type"),
    id: Id,
    name: z.string(),
    zones: z.array(Ref).openapi({ description: "Zones every ticket of this type opens." }),
  })
  .openapi("TicketType");
export type TicketType = z.infer<typeof TicketType>;

export const ticketStatuses = ["active", "inactive", "used"] as const;
export const TicketStatus = z.enum(ticketStatuses);
export type TicketStatus = z.infer<typeof TicketStatus>;

export const Ticket = z
  .object({
    object: z.literal("ticket"),
    id: Id,
    code: z.string().openapi({ description: "Printed on the QR; unique across the event." }),
    status: TicketStatus,
    ticket_type: Ref,
    attendee: z.object({
      name: z.string(),
      email: z.string(),
      document: z.object({ type: z.string(), last4: z.string() }).nullable(),
    }),
    valid_days: z.array(Ref),
    extra_zones: z.array(Ref),
    wristband: z.object({ id: Id, nfc: z.string() }).nullable(),
    checked_in_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Ticket");
export type Ticket = z.infer<typeof Ticket>;

export const wristbandStatuses = ["active", "blocked", "lost", "released", "pending_review"] as const;
export const WristbandStatus = z.enum(wristbandStatuses);
export type WristbandStatus = z.infer<typeof WristbandStatus>;

export const Wristband = z
  .object({
    object: z.literal("wristband"),
    id: Id,
    nfc: z.string(),
    uhf: z.string().nullable(),
    status: WristbandStatus,
    balance: Cents.openapi({ description: "Paid balance; the only one refunded. May be negative." }),
    promo_balance: Cents.openapi({ description: "Gifted balance (bonuses, courtesy); never refunded." }),
    attendee: z.object({ name: z.string().nullable(), anonymous: z.boolean() }),
    ticket: z.object({ code: z.string(), ticket_type: z.string() }).nullable(),
    allowed_zones: z.array(Ref),
    valid_days: z.array(Id),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Wristband");
export type Wristband = z.infer<typeof Wristband>;

export const saleStatuses = ["completed", "pending", "cancelled"] as const;
export const salePaymentMethods = ["wristband", "card", "cash"] as const;

export const TaxLine = z
  .object({
    tax_type: z.string().openapi({ example: "VAT" }),
    rate: z.number().openapi({ description: "Percentage: 21 means 21 %." }),
    base: Cents,
    amount: Cents,
  })
  .openapi("TaxLine");
export type TaxLine = z.infer<typeof TaxLine>;

export const SaleItem = z
  .object({
    product_id: z.string(),
    name: z.string(),
    quantity: z.number().int(),
    unit_price: Cents,
    charged_amount: Cents.openapi({ description: "(quantity − included_quantity) × unit_price" }),
    included_quantity: z
      .number()
      .int()
      .openapi({ description: "Units included in the ticket, not charged." }),
  })
  .openapi("SaleItem");
export type SaleItem = z.infer<typeof SaleItem>;

export const Transaction = z
  .object({
    object: z.literal("transaction"),
    id: Id,
    status: z.enum(saleStatuses),
    type: z.enum(["cart", "return"]),
    payment_method: z.enum(salePaymentMethods),
    total: Cents,
    total_base: Cents,
    total_tax: Cents,
    tax_breakdown: z.array(TaxLine),
    items: z.array(SaleItem),
    wristband_id: Id,
    day_id: Id,
    device_id: z.string().nullable(),
    occurred_at: Timestamp,
    created_at: Timestamp,
  })
  .openapi("Transaction");
export type Transaction = z.infer<typeof Transaction>;

export const topupPaymentMethods = ["card", "cash", "online", "promo", "transfer"] as const;
export const topupNatures = ["paid", "bonus", "courtesy", "transfer"] as const;
export const TopupDirection = z.enum(["topup", "withdraw"]);

export const Topup = z
  .object({
    object: z.literal("topup"),
    id: Id,
    direction: TopupDirection,
    amount: Cents,
    previous_balance: Cents,
    new_balance: Cents,
    payment_method: z.enum(topupPaymentMethods).openapi({
      description:
        "`promo` records move `promo_balance`; every other method moves `balance`. `transfer` is a paid-balance move between wristbands of one person after a review.",
    }),
    nature: z.enum(topupNatures),
    status: z.enum(["completed", "pending", "failed"]),
    wristband_id: Id,
    day_id: Id,
    device_id: z.string().nullable(),
    occurred_at: Timestamp,
    created_at: Timestamp,
  })
  .openapi("Topup");
export type Topup = z.infer<typeof Topup>;

export const scanReasons = ["zone_not_allowed", "day_not_valid", "unknown_code"] as const;

export const Checkin = z
  .object({
    object: z.literal("checkin"),
    id: Id,
    kind: z.enum(["check_in", "access_check"]),
    allowed: z.boolean(),
    reason: z.string().nullable().openapi({
      description:
        "Null when allowed; else zone_not_allowed, day_not_valid, unknown_code or a wristband status.",
    }),
    ticket_code: z.string().nullable(),
    wristband_id: Id.nullable(),
    zone: Ref.nullable(),
    device_id: z.string().nullable(),
    day_id: Id,
    occurred_at: Timestamp,
    created_at: Timestamp,
  })
  .openapi("Checkin");
export type Checkin = z.infer<typeof Checkin>;

export const TopupBonusQuote = z
  .object({
    object: z.literal("topup_bonus_quote"),
    data: z.array(
      z.object({
        amount: Cents,
        bonus_amount: Cents,
        rule: z.object({ id: Id, name: z.string() }).nullable(),
        next: z.object({ amount: Cents, bonus_amount: Cents }).nullable(),
      }),
    ),
  })
  .openapi("TopupBonusQuote");
export type TopupBonusQuote = z.infer<typeof TopupBonusQuote>;

const MethodTotals = z.object({ payment_method: z.string(), count: z.number().int(), total: Cents });
const MoneyFlow = z.object({
  count: z.number().int(),
  amount: Cents,
  by_payment_method: z.array(
    z.object({ payment_method: z.string(), count: z.number().int(), amount: Cents }),
  ),
});

export const SalesSummary = z
  .object({
    object: z.literal("sales_summary"),
    day_id: Id.nullable(),
    currency: z.string(),
    sales: z.object({ count: z.number().int(), total: Cents, total_base: Cents, total_tax: Cents }),
    by_payment_method: z.array(MethodTotals),
    by_tax: z.array(TaxLine),
    by_product: z.array(
      z.object({ product_id: z.string(), name: z.string(), quantity: z.number().int(), total: Cents }),
    ),
    topups: MoneyFlow,
    withdrawals: MoneyFlow,
    bonuses: z.object({ count: z.number().int(), amount: Cents }),
    generated_at: Timestamp,
  })
  .openapi("SalesSummary");
export type SalesSummary = z.infer<typeof SalesSummary>;

export const Ping = z
  .object({
    object: z.literal("ping"),
    ok: z.literal(true),
    environment: Environment,
    event: z.object({ id: Id, name: z.string() }),
    key: z.object({
      id: Id,
      name: z.string(),
      scopes: z.array(Scope),
      restrictions: Restrictions,
      rate_limits: RateLimits,
    }),
  })
  .openapi("Ping");
export type Ping = z.infer<typeof Ping>;
