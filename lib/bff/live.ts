/**
 * Answers of the live screens' route handlers (`app/api/live/*`). Types only, so client
 * components can import them. Money is in minor units of `event.currency`; instants are ISO UTC
 * and shown in `event.time_zone`.
 */

export interface LiveEvent {
  name: string;
  currency: string;
  time_zone: string;
}

export interface LiveDay {
  id: string;
  name: string;
  date: string;
  starts_at: string;
  ends_at: string;
}

/** What every live answer carries: the event, its days, and how fresh the mirror is. */
export interface LiveContext {
  event: LiveEvent | null;
  days: LiveDay[];
  /** The sales resource's last successful sync (null: never synced yet). */
  as_of: string | null;
  sync: {
    healthy: boolean;
    worker_stale: boolean | null;
    failing: string[];
    last_error: { message: string; request_id: string | null; at: string } | null;
    /** Lag of the sales tail at its last success (seconds). */
    sales_lag_seconds: number | null;
    days_mismatched: string[];
    /** Resources never synced yet (their screens are not empty, just not mirrored yet). */
    pending: string[];
  };
}

export interface SalesTotals {
  count: number;
  total: number;
  total_base: number;
  total_tax: number;
}

export interface HourPoint extends SalesTotals {
  /** UTC instant at which the event-local hour starts. */
  hour: string;
}

export interface FlowTotals {
  topups: { count: number; amount: number };
  withdrawals: { count: number; amount: number };
  bonus: { count: number; amount: number };
}

export interface LateArrivals {
  count: number;
  total: number;
  devices: { device_id: string; count: number; total: number; latest_created_at: string | null }[];
}

export interface OverviewReport extends LiveContext {
  day: LiveDay | null;
  previous_day: LiveDay | null;
  totals: SalesTotals & { average_basket: number };
  flows: FlowTotals;
  /** Every hour bucket of the day's window, with the previous day's same hour of its window. */
  hours: { hour: string; total: number; count: number; previous_total: number | null }[];
  by_day: {
    day_id: string;
    name: string;
    date: string;
    count: number;
    total: number;
    topups: number;
    withdrawals: number;
  }[];
  late: LateArrivals;
}

export interface SaleRow {
  id: string;
  status: string;
  type: string;
  payment_method: string;
  total: number;
  device_id: string | null;
  occurred_at: string;
  created_at: string;
}

export interface SalesDayReport extends LiveContext {
  day: LiveDay | null;
  totals: SalesTotals;
  hours: HourPoint[];
  by_product: { product_id: string; name: string; quantity: number; total: number }[];
  by_device: { device_id: string; count: number; total: number }[];
  by_payment_method: { payment_method: string; count: number; total: number }[];
  by_tax: { tax_type: string; rate: number; base: number; tax: number }[];
  latest: { data: SaleRow[]; next_cursor: string | null };
}

export interface TopupRow {
  id: string;
  direction: "topup" | "withdraw";
  amount: number;
  payment_method: string;
  nature: string;
  status: string;
  device_id: string | null;
  occurred_at: string;
}

export interface TopupsDayReport extends LiveContext {
  day: LiveDay | null;
  flows: FlowTotals;
  /** Paid top-ups minus withdrawals (bonus and courtesy credit is not money in). */
  net_inflow: number;
  hours: { hour: string; topups: number; withdrawals: number }[];
  by_day: { day_id: string; name: string; topups: number; withdrawals: number }[];
  by_payment_method: { payment_method: string; topups: number; withdrawals: number; count: number }[];
  by_nature: { nature: string; topups: number; withdrawals: number; count: number }[];
  latest: { data: TopupRow[]; next_cursor: string | null };
}

export interface ScanRow {
  id: string;
  kind: string;
  reason: string | null;
  zone: string | null;
  ticket_code: string | null;
  device_id: string | null;
  occurred_at: string;
}

export interface ScansDayReport extends LiveContext {
  day: LiveDay | null;
  totals: { allowed: number; denied: number };
  zones: { zone_id: string; name: string }[];
  /** Per hour: allowed and denied per zone id. */
  hours: { hour: string; allowed: number; denied: number; by_zone: Record<string, number> }[];
  by_zone: { zone_id: string; name: string; allowed: number; denied: number }[];
  denied_by_reason: { reason: string; count: number }[];
  latest_denials: ScanRow[];
}
