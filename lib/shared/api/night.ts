import { z } from "zod";
import { MAX_PIECES } from "../denominations";
import { DayId, DeviceId, IdempotencyKey, typedText } from "./params";
import { CountAmount, DayFigures, LiveContext, LiveDay, LiveEvent, SalesTotals } from "./sales";

/** Methods a desk physically holds or settles: counted at sign-off. */
export const COUNTED_METHODS = ["cash", "card"] as const;

/** Answers of the night reconciliation (`app/api/reconciliation/*`). Money in integer minor units. */

export { CountAmount };

/**
 * Expected money at one desk (device) for one payment method: the opening float (cash) + top-ups −
 * withdrawals + sales.
 */
export const ExpectedLine = z.object({
  device_id: z.string(),
  payment_method: z.string(),
  /** The desk's opening float (cash lines; sign-offs before issue 24 have none). */
  float: z.number().default(0),
  topups: z.number(),
  withdrawals: z.number(),
  sales: z.number(),
  expected: z.number(),
});
export type ExpectedLine = z.infer<typeof ExpectedLine>;

const ByMethod = z.array(z.object({ payment_method: z.string(), count: z.number(), amount: z.number() }));

/** The figures of one night, frozen as they are into a sign-off's snapshot. */
export const NightFigures = z.object({
  day_id: z.string(),
  sales: SalesTotals,
  sales_by_payment_method: z.array(
    z.object({ payment_method: z.string(), count: z.number(), total: z.number() }),
  ),
  sales_by_device: z.array(z.object({ device_id: z.string(), count: z.number(), total: z.number() })),
  sales_by_tax: z.array(
    z.object({ tax_type: z.string(), rate: z.number(), base: z.number(), tax: z.number() }),
  ),
  topups: CountAmount,
  topups_by_payment_method: ByMethod,
  withdrawals: CountAmount,
  withdrawals_by_payment_method: ByMethod,
  bonuses: CountAmount,
  transfers: CountAmount,
  expected: z.array(ExpectedLine),
});
export type NightFigures = z.infer<typeof NightFigures>;

export const NightChecksum = z.object({
  /** The worker's last GET /reports/sales-summary?day_id= of this night (null: not checked yet). */
  upstream: z
    .object({ sales: SalesTotals, topups: CountAmount, withdrawals: CountAmount, generated_at: z.string() })
    .nullable(),
  checked_at: z.string().nullable(),
  matched: z.boolean().nullable(),
  /** upstream − this screen's figures (zeros when they match). */
  difference: z
    .object({
      sales_count: z.number(),
      sales_total: z.number(),
      topups_amount: z.number(),
      withdrawals_amount: z.number(),
    })
    .nullable(),
  rewalks: z.number(),
  last_rewalk_at: z.string().nullable(),
  /** A "re-sync this night" request not yet handled by the worker. */
  resync_pending_since: z.string().nullable(),
});
export type NightChecksum = z.infer<typeof NightChecksum>;

export const LateArrivals = z.object({
  count: z.number(),
  amount: z.number(),
  latest_created_at: z.string().nullable(),
  by_device: z.array(
    z.object({
      device_id: z.string(),
      count: z.number(),
      amount: z.number(),
      latest_created_at: z.string().nullable(),
    }),
  ),
});
export type LateArrivals = z.infer<typeof LateArrivals>;

/** Pieces per denomination (`{"5000": 3}`: three notes of 50.00), when counted by notes and coins. */
export const DenominationCounts = z.record(
  z.string().regex(/^[1-9][0-9]{0,9}$/, "a denomination in minor units."),
  z.number().int().min(0).max(MAX_PIECES),
);

export const CountedLine = z.object({
  device_id: z.string(),
  payment_method: z.string(),
  counted: z.number(),
  expected: z.number(),
  variance: z.number(),
  denominations: DenominationCounts.optional(),
});
export type CountedLine = z.infer<typeof CountedLine>;

/** A terminal active in the night, and whether the night waits for it. */
export const NightTerminal = z.object({
  device_id: z.string(),
  records: z.number(),
  /** Its newest record that reached the server (any night). */
  synced_up_to: z.string().nullable(),
  /** When it last reached the server. */
  last_arrival: z.string().nullable(),
  /** It has not reached the server since well before the night's last activity: it may hold records. */
  pending: z.boolean(),
  waiver: z.object({ username: z.string(), reason: z.string(), waived_at: z.string() }).nullable(),
});
export type NightTerminal = z.infer<typeof NightTerminal>;

/** Is the night complete: provisional while a pending terminal is neither synced nor waived. */
export const NightCompleteness = z.object({
  provisional: z.boolean(),
  /** The night's last activity over all its terminals. */
  last_activity: z.string().nullable(),
  terminals: z.array(NightTerminal),
});
export type NightCompleteness = z.infer<typeof NightCompleteness>;

/** The most a variance may be, in minor units: per desk and method, and over the night. */
export const Tolerance = z.object({ line: z.number(), night: z.number() });
export type Tolerance = z.infer<typeof Tolerance>;

/** The opening float of a cash desk: the latest entry counts (every entry is kept and audited). */
export const FloatEntry = z.object({
  device_id: z.string(),
  amount: z.number(),
  username: z.string(),
  set_at: z.string(),
});
export type FloatEntry = z.infer<typeof FloatEntry>;

export const SignoffSnapshot = z.object({
  figures: NightFigures,
  checksum: NightChecksum,
  late: LateArrivals,
  /** Recorded since issue 13 (older sign-offs have none). */
  completeness: NightCompleteness.optional(),
  /** Since issue 24: the tolerance the variances were judged by. */
  tolerance: Tolerance.optional(),
  /** Signed although the checksum was not checked yet or differed (the supervisor said so). */
  signed_against_difference: z.boolean().optional(),
  /** Counted blind: the expected figures were hidden until each line was counted. */
  blind: z.boolean().optional(),
  /** The floats the expected cash included. */
  floats: z.array(FloatEntry).optional(),
});
export type SignoffSnapshot = z.infer<typeof SignoffSnapshot>;

export const Approval = z.object({ username: z.string(), approved_at: z.string(), comment: z.string() });
export type Approval = z.infer<typeof Approval>;

export const Signoff = z.object({
  id: z.string(),
  day_id: z.string(),
  signed_at: z.string(),
  username: z.string(),
  comment: z.string(),
  counted: z.array(CountedLine),
  snapshot: SignoffSnapshot,
  /** The sign-off of the night this one replaced (null: the night's first). */
  supersedes: z.string().nullable().default(null),
  /** A variance was beyond the tolerance: final once a manager (not the signer) approves it. */
  needs_approval: z.boolean().default(false),
  approval: Approval.nullable().default(null),
  status: z.enum(["final", "awaiting_approval", "superseded"]),
});
export type Signoff = z.infer<typeof Signoff>;

/** One line of the night whose value moved since the last sign-off. */
export const DriftLine = z.object({
  key: z.string(),
  label: z.string(),
  before: z.number(),
  after: z.number(),
  delta: z.number(),
  money: z.boolean(),
});
export type DriftLine = z.infer<typeof DriftLine>;

export const Drift = z.object({
  signoff_id: z.string(),
  sales_count: z.number(),
  sales_total: z.number(),
  lines: z.array(DriftLine),
});
export type Drift = z.infer<typeof Drift>;

/** A line of the draft count: saved, not signed. */
export const DraftLine = z.object({
  device_id: z.string(),
  payment_method: z.string(),
  counted: z.number(),
  denominations: DenominationCounts.nullable(),
  username: z.string(),
  updated_at: z.string(),
});
export type DraftLine = z.infer<typeof DraftLine>;

export const NightReport = LiveContext.extend({
  day: LiveDay.nullable(),
  /** Where the night's totals come from: the summary while its records are still being mirrored. */
  figures_source: DayFigures,
  /** The night has ended (a night still running cannot be signed off as final, but can be counted). */
  ended: z.boolean(),
  figures: NightFigures.nullable(),
  checksum: NightChecksum.nullable(),
  late: LateArrivals.nullable(),
  signoffs: z.array(Signoff),
  /** Changes since the latest sign-off (null: not signed, or nothing changed). */
  drift: Drift.nullable(),
  completeness: NightCompleteness.nullable(),
  /** The tolerance variances are judged by (NIGHT_TOLERANCE_LINE / NIGHT_TOLERANCE_NIGHT). */
  tolerance: Tolerance,
  /** The current opening float of each cash desk given one. */
  floats: z.array(FloatEntry),
  /** Counts saved as a draft. */
  draft: z.array(DraftLine),
  /** Records that reached the server after the latest sign-off, per terminal: adjustments to its frozen snapshot. */
  adjustments: z
    .object({
      signoff_id: z.string(),
      signed_at: z.string(),
      by_device: LateArrivals.shape.by_device,
    })
    .nullable(),
});
export type NightReport = z.infer<typeof NightReport>;

/** The most a count may be, in minor units (ten million in major units). */
export const MAX_COUNT = 1_000_000_000;

const CountMethod = z
  .string()
  .refine((m) => (COUNTED_METHODS as readonly string[]).includes(m), "must be cash or card.");

/** A desk id as the night names it, matched as stored ("" is the records without a terminal). */
const DeskId = DeviceId.or(z.literal(""));

/**
 * One counted line: a typed total, or notes and coins (cash only), never both. Cash cannot be
 * negative; a card batch can (refunds).
 */
const CountLineInput = z
  .object({
    device_id: DeskId,
    payment_method: CountMethod,
    counted: z.number().int().min(-MAX_COUNT).max(MAX_COUNT).optional(),
    denominations: DenominationCounts.optional(),
  })
  .superRefine((line, ctx) => {
    if ((line.counted === undefined) === (line.denominations === undefined))
      ctx.addIssue({
        code: "custom",
        path: ["counted"],
        message: "give a counted total or the notes and coins, not both.",
      });
    if (line.denominations && line.payment_method !== "cash")
      ctx.addIssue({
        code: "custom",
        path: ["denominations"],
        message: "only cash is counted in notes and coins.",
      });
    if (line.payment_method === "cash" && (line.counted ?? 0) < 0)
      ctx.addIssue({ code: "custom", path: ["counted"], message: "counted cash cannot be negative." });
  });
export type CountLineInput = z.infer<typeof CountLineInput>;

/** POST /api/reconciliation/signoff */
export const SignoffRequest = z.object({
  day_id: DayId,
  /** Created when the form opened; a replay answers the original sign-off. */
  idempotency_key: IdempotencyKey,
  /** The sign-off the form showed as the latest (null: none). Two sign-offs based on one are refused. */
  based_on: z
    .string()
    .regex(/^[0-9]{1,18}$/, "not a sign-off id.")
    .nullable()
    .default(null),
  comment: typedText({ max: 2000, multiline: true }).default(""),
  counted: z.array(CountLineInput).max(1000),
  /** The checksum was not checked yet, or differs: the supervisor signs against it explicitly. */
  sign_against_difference: z.boolean().default(false),
  /** The count was made blind (the expected figures hidden until each line was counted). */
  blind: z.boolean().default(false),
});
export type SignoffRequest = z.input<typeof SignoffRequest>;
/** A sign-off request as the server holds it once parsed (defaults filled in). */
export type SignoffInput = z.output<typeof SignoffRequest>;

/** A sign-off and whether it was stored just now (false: a replay of its idempotency key). */
export interface SignoffOutcome {
  signoff: Signoff;
  created: boolean;
}

/** POST /api/reconciliation/signoffs/{id}/approve */
export const ApprovalRequest = z.object({ comment: typedText({ max: 2000, multiline: true }).default("") });

/** POST /api/reconciliation/draft: counts saved without signing (a line with `counted: null` is cleared). */
export const DraftRequest = z.object({
  day_id: DayId,
  lines: z
    .array(
      z.union([
        CountLineInput,
        z.object({ device_id: DeskId, payment_method: CountMethod, counted: z.null() }),
      ]),
    )
    .max(1000),
});
export type DraftRequest = z.input<typeof DraftRequest>;

/** POST /api/reconciliation/floats: a cash desk's opening float for a night. */
export const FloatRequest = z.object({
  day_id: DayId,
  device_id: DeviceId,
  amount: z.number().int().min(0).max(MAX_COUNT),
});
export type FloatRequest = z.infer<typeof FloatRequest>;

/** POST /api/reconciliation/resync */
export const ResyncAnswer = z.object({ day_id: z.string(), requested_at: z.string() });
export type ResyncAnswer = z.infer<typeof ResyncAnswer>;

export const WaiverRequest = z.object({
  day_id: DayId,
  device_id: DeviceId,
  reason: typedText({ min: 3, max: 500, multiline: true, tooShort: "Say why (at least 3 characters)." }),
});
export type WaiverRequest = z.infer<typeof WaiverRequest>;

/**
 * The night report of one sign-off: made from its frozen snapshot (not the live night), with the
 * records that reached the server since it (adjustments, as of `generated_at`).
 */
export const NightReportDocument = z.object({
  event: LiveEvent,
  day: LiveDay,
  signoff: Signoff,
  adjustments: LateArrivals.shape.by_device,
  generated_at: z.string(),
});
export type NightReportDocument = z.infer<typeof NightReportDocument>;
