import type { LiveContext, LiveDay, SalesTotals } from "./live";

/** Types of the night reconciliation screen (issue #7). Money in integer cents. */

export interface CountAmount {
  count: number;
  amount: number;
}

/** Expected money at one desk (device) for one payment method: top-ups − withdrawals + sales. */
export interface ExpectedLine {
  device_id: string;
  payment_method: string;
  topups: number;
  withdrawals: number;
  sales: number;
  expected: number;
}

/** The figures of one night, frozen as they are into a sign-off's snapshot. */
export interface NightFigures {
  day_id: string;
  sales: SalesTotals;
  sales_by_payment_method: { payment_method: string; count: number; total: number }[];
  sales_by_device: { device_id: string; count: number; total: number }[];
  sales_by_tax: { tax_type: string; rate: number; base: number; tax: number }[];
  topups: CountAmount;
  topups_by_payment_method: { payment_method: string; count: number; amount: number }[];
  withdrawals: CountAmount;
  withdrawals_by_payment_method: { payment_method: string; count: number; amount: number }[];
  bonuses: CountAmount;
  transfers: CountAmount;
  expected: ExpectedLine[];
}

export interface NightChecksum {
  /** The worker's last GET /reports/sales-summary?day_id= of this night (null: not checked yet). */
  upstream: {
    sales: SalesTotals;
    topups: CountAmount;
    withdrawals: CountAmount;
    generated_at: string;
  } | null;
  checked_at: string | null;
  matched: boolean | null;
  /** upstream − this screen's figures (zeros when they match). */
  difference: {
    sales_count: number;
    sales_total: number;
    topups_amount: number;
    withdrawals_amount: number;
  } | null;
  rewalks: number;
  last_rewalk_at: string | null;
  /** A "re-sync this night" request not yet handled by the worker. */
  resync_pending_since: string | null;
}

export interface LateArrivals {
  count: number;
  amount: number;
  latest_created_at: string | null;
  by_device: { device_id: string; count: number; amount: number; latest_created_at: string | null }[];
}

export interface CountedLine {
  device_id: string;
  payment_method: string;
  counted: number;
  expected: number;
  variance: number;
}

export interface SignoffSnapshot {
  figures: NightFigures;
  checksum: NightChecksum;
  late: LateArrivals;
}

export interface Signoff {
  id: string;
  day_id: string;
  signed_at: string;
  username: string;
  comment: string;
  counted: CountedLine[];
  snapshot: SignoffSnapshot;
}

/** One line of the night whose value moved since the last sign-off. */
export interface DriftLine {
  key: string;
  label: string;
  before: number;
  after: number;
  delta: number;
  money: boolean;
}

export interface Drift {
  signoff_id: string;
  sales_count: number;
  sales_total: number;
  lines: DriftLine[];
}

export interface NightReport extends LiveContext {
  day: LiveDay | null;
  /** The night has ended (a night still running cannot be signed off as final, but can be counted). */
  ended: boolean;
  figures: NightFigures | null;
  checksum: NightChecksum | null;
  late: LateArrivals | null;
  signoffs: Signoff[];
  /** Changes since the latest sign-off (null: not signed, or nothing changed). */
  drift: Drift | null;
}

export interface SignoffRequest {
  day_id: string;
  comment: string;
  counted: { device_id: string; payment_method: string; counted: number }[];
}
