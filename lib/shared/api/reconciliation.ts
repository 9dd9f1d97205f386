import { z } from "zod";
import { COUNTED_METHODS } from "../reconciliation";
import { CountAmount, DayFigures, LiveContext, LiveDay, SalesTotals } from "./live";
import { DeviceId, typedText } from "./params";

/** Answers of the night reconciliation (`app/api/reconciliation/*`). Money in integer minor units. */

export { CountAmount };

/** Expected money at one desk (device) for one payment method: top-ups − withdrawals + sales. */
export const ExpectedLine = z.object({
  device_id: z.string(),
  payment_method: z.string(),
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

export const CountedLine = z.object({
  device_id: z.string(),
  payment_method: z.string(),
  counted: z.number(),
  expected: z.number(),
  variance: z.number(),
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

export const SignoffSnapshot = z.object({
  figures: NightFigures,
  checksum: NightChecksum,
  late: LateArrivals,
  /** Recorded since issue 13 (older sign-offs have none). */
  completeness: NightCompleteness.optional(),
});
export type SignoffSnapshot = z.infer<typeof SignoffSnapshot>;

export const Signoff = z.object({
  id: z.string(),
  day_id: z.string(),
  signed_at: z.string(),
  username: z.string(),
  comment: z.string(),
  counted: z.array(CountedLine),
  snapshot: SignoffSnapshot,
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

/** POST /api/reconciliation/signoff */
export const SignoffRequest = z.object({
  day_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "not a valid day id."),
  comment: typedText({ max: 2000, multiline: true }).default(""),
  counted: z
    .array(
      z.object({
        device_id: DeviceId.or(z.literal("")),
        payment_method: z
          .string()
          .refine((m) => (COUNTED_METHODS as readonly string[]).includes(m), "must be cash or card."),
        counted: z.number().int().min(-1e11).max(1e11),
      }),
    )
    .max(1000),
});
export type SignoffRequest = z.input<typeof SignoffRequest>;

/** POST /api/reconciliation/resync */
export const ResyncAnswer = z.object({ day_id: z.string(), requested_at: z.string() });
export type ResyncAnswer = z.infer<typeof ResyncAnswer>;

export const WaiverRequest = z.object({
  day_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, "not a valid day id."),
  device_id: DeviceId,
  reason: typedText({ min: 3, max: 500, multiline: true, tooShort: "Say why (at least 3 characters)." }),
});
export type WaiverRequest = z.infer<typeof WaiverRequest>;
