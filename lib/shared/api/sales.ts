import { z } from "zod";

/**
 * Answers of the live screens' route handlers (`app/api/live/*`), declared once: the server's
 * answer is parsed with these schemas before it leaves, the browser parses it again on arrival.
 * Money is in minor units of `event.currency`; instants are ISO UTC and shown in `event.time_zone`.
 */

const count = z.number();
const money = z.number();
const instant = z.string();

export const LiveEvent = z.object({ name: z.string(), currency: z.string(), time_zone: z.string() });
export type LiveEvent = z.infer<typeof LiveEvent>;

export const LiveDay = z.object({
  id: z.string(),
  name: z.string(),
  date: z.string(),
  starts_at: instant,
  ends_at: instant,
});
export type LiveDay = z.infer<typeof LiveDay>;

/**
 * Where a day's figures come from: the mirror once every record of the day is mirrored and equals
 * the upstream's summary; before that (or while it differs) the summary the worker last fetched.
 */
export const FigureSource = z.enum(["mirror", "summary"]);
export type FigureSource = z.infer<typeof FigureSource>;

/** How far the mirror of one day is. */
export const DayMirror = z.object({
  day_id: z.string(),
  name: z.string(),
  /** Every record of the day walked (the first mirror). */
  walked: z.boolean(),
  source: FigureSource,
  /** When the kept summary was generated upstream (null: none yet). */
  summary_at: instant.nullable(),
  /** Completed sales, top-ups and withdrawals mirrored, and how many the summary counts. */
  records: count,
  expected: count.nullable(),
});
export type DayMirror = z.infer<typeof DayMirror>;

/** The mirror's progress, for the banner of the live screens and the Connection screen. */
export const MirrorProgress = z.object({
  /** starting: no summary yet; backfilling: a day is still being walked; following: tails only. */
  state: z.enum(["starting", "backfilling", "following"]),
  /** The walk in progress (null: none). */
  walking: z.object({ resource: z.string(), day_id: z.string() }).nullable(),
  /** Estimated from the records left and the worker's share of the read quota (null: unknown). */
  eta_seconds: z.number().nullable(),
  paused_until: instant.nullable(),
  days: z.array(DayMirror),
  /** Per tail resource: its walks (days walked of days planned, records, requests) and what it does. */
  resources: z.array(
    z.object({
      resource: z.string(),
      state: z.enum(["waiting", "backfilling", "following"]),
      day_id: z.string().nullable(),
      days_walked: count,
      days: count,
      records: count,
      requests: count,
    }),
  ),
});
export type MirrorProgress = z.infer<typeof MirrorProgress>;

/** What every live answer carries: the event, its days, and how fresh the mirror is. */
export const LiveContext = z.object({
  event: LiveEvent.nullable(),
  days: z.array(LiveDay),
  /** The sales resource's last successful sync (null: never synced yet). */
  as_of: instant.nullable(),
  sync: z.object({
    healthy: z.boolean(),
    worker_stale: z.boolean().nullable(),
    failing: z.array(z.string()),
    last_error: z.object({ message: z.string(), request_id: z.string().nullable(), at: instant }).nullable(),
    /** Lag of the sales tail at its last success (seconds). */
    sales_lag_seconds: z.number().nullable(),
    days_mismatched: z.array(z.string()),
    /** Resources never synced yet (their screens are not empty, just not mirrored yet). */
    pending: z.array(z.string()),
  }),
  mirror: MirrorProgress,
});
export type LiveContext = z.infer<typeof LiveContext>;

/**
 * How fresh the mirror is, for answers that do not carry the whole LiveContext (terminals, alerts:
 * computed from the mirror after each cycle, they are as old as it is).
 */
export const MirrorFreshness = z.object({
  as_of: instant.nullable(),
  sync: z.object({
    worker_stale: z.boolean().nullable(),
    failing: z.array(z.string()),
    paused_until: instant.nullable(),
  }),
});
export type MirrorFreshness = z.infer<typeof MirrorFreshness>;

export const SalesTotals = z.object({ count, total: money, total_base: money, total_tax: money });
export type SalesTotals = z.infer<typeof SalesTotals>;

export const HourPoint = SalesTotals.extend({
  /** UTC instant at which the event-local hour starts. */
  hour: instant,
});
export type HourPoint = z.infer<typeof HourPoint>;

export const CountAmount = z.object({ count, amount: money });
export type CountAmount = z.infer<typeof CountAmount>;

/**
 * A day's flows. `topups` is every top-up record (paid money, promo credit and transfers between
 * wristbands); `paid` the money people paid, `promo` the credit given (bonus and courtesy): two
 * figures never added together on screen. `bonus` is the bonus part of `promo`.
 */
export const FlowTotals = z.object({
  topups: CountAmount,
  paid: CountAmount,
  promo: CountAmount,
  withdrawals: CountAmount,
  bonus: CountAmount,
});
export type FlowTotals = z.infer<typeof FlowTotals>;

export const LateArrivals = z.object({
  count,
  total: money,
  devices: z.array(
    z.object({ device_id: z.string(), count, total: money, latest_created_at: instant.nullable() }),
  ),
});
export type LateArrivals = z.infer<typeof LateArrivals>;

const Page = <T extends z.ZodType>(row: T) =>
  z.object({ data: z.array(row), next_cursor: z.string().nullable() });

/** Where the day's totals and breakdowns come from (see FigureSource); record panels are the mirror's. */
export const DayFigures = z.object({ source: FigureSource, summary_at: instant.nullable() });
export type DayFigures = z.infer<typeof DayFigures>;

/**
 * Tonight's forecast (issue 13): the day's sales at close from the share of their day the earlier
 * nights had reached by this point, with the range those shares give. `reason` says why there is
 * no figure: the first day (nothing to compare with), no earlier day with sales, nothing sold yet,
 * or so early that the earlier nights had made under 5 % of their sales by this point.
 */
export const SalesForecast = z.object({
  reason: z.enum(["first_day", "no_history", "too_early", "early_in_night"]).nullable(),
  projected_total: money.nullable(),
  low: money.nullable(),
  high: money.nullable(),
  /** Earlier days the projection is based on. */
  basis_days: count,
  so_far: money,
  /** Today so far against yesterday at the same point of its window, in percent. */
  vs_yesterday_pct: z.number().nullable(),
  /** The same method on yesterday at this point, against how it closed. */
  backtest: z
    .object({ day_id: z.string(), name: z.string(), predicted: money, actual: money, error_pct: z.number() })
    .nullable(),
});
export type SalesForecast = z.infer<typeof SalesForecast>;

export const OverviewReport = LiveContext.extend({
  day: LiveDay.nullable(),
  figures: DayFigures,
  previous_day: LiveDay.nullable(),
  totals: SalesTotals.extend({ average_basket: money }),
  flows: FlowTotals,
  /** Every hour bucket of the day's window, with the previous day's same hour of its window. */
  hours: z.array(
    z.object({
      hour: instant,
      total: money,
      count,
      previous_total: money.nullable(),
      /** The forecast's share of the hours still to come (the dashed line). */
      forecast_total: money.nullable(),
    }),
  ),
  forecast: SalesForecast.nullable(),
  by_day: z.array(
    z.object({
      day_id: z.string(),
      name: z.string(),
      date: z.string(),
      count,
      total: money,
      topups: money,
      withdrawals: money,
    }),
  ),
  late: LateArrivals,
});
export type OverviewReport = z.infer<typeof OverviewReport>;

export const SaleRow = z.object({
  id: z.string(),
  status: z.string(),
  type: z.string(),
  payment_method: z.string(),
  total: money,
  device_id: z.string().nullable(),
  occurred_at: instant,
  created_at: instant,
});
export type SaleRow = z.infer<typeof SaleRow>;

export const SalesDayReport = LiveContext.extend({
  day: LiveDay.nullable(),
  figures: DayFigures,
  totals: SalesTotals,
  hours: z.array(HourPoint),
  by_product: z.array(z.object({ product_id: z.string(), name: z.string(), quantity: count, total: money })),
  by_device: z.array(z.object({ device_id: z.string(), count, total: money })),
  by_payment_method: z.array(z.object({ payment_method: z.string(), count, total: money })),
  by_tax: z.array(z.object({ tax_type: z.string(), rate: z.number(), base: money, tax: money })),
  latest: Page(SaleRow),
});
export type SalesDayReport = z.infer<typeof SalesDayReport>;

export const TopupRow = z.object({
  id: z.string(),
  direction: z.enum(["topup", "withdraw"]),
  amount: money,
  payment_method: z.string(),
  nature: z.string(),
  status: z.string(),
  device_id: z.string().nullable(),
  occurred_at: instant,
});
export type TopupRow = z.infer<typeof TopupRow>;

/**
 * Top-ups the way organisers read them (issue 13): the average paid top-up, paid top-ups by the
 * ticket type of the wristband's ticket and by channel (online, before or during the event, or on
 * site at a desk), and per day the share of paid balance still unspent (the liability).
 */
export const TopupInsights = z.object({
  average_topup: money,
  by_ticket_type: z.array(
    z.object({ ticket_type: z.string().nullable(), count, amount: money, average: money }),
  ),
  by_channel: z.array(z.object({ channel: z.enum(["online", "on_site"]), count, amount: money })),
  /**
   * At the end of each day so far: paid money loaded, withdrawn, spent, still unspent, and its
   * share of what was loaded. Spending takes promo credit first (the API's rule), counted over
   * all wristbands together: an estimate (per wristband, promo spent can only be less). A day
   * whose records (or an earlier day's) are not all mirrored yet has no figures (`mirrored` false).
   */
  liability: z.array(
    z.object({
      day_id: z.string(),
      name: z.string(),
      mirrored: z.boolean(),
      loaded: money.nullable(),
      withdrawn: money.nullable(),
      spent: money.nullable(),
      unspent: money.nullable(),
      share: z.number().nullable(),
    }),
  ),
});
export type TopupInsights = z.infer<typeof TopupInsights>;

export const TopupsDayReport = LiveContext.extend({
  day: LiveDay.nullable(),
  figures: DayFigures,
  flows: FlowTotals,
  /** Paid top-ups minus withdrawals (bonus and courtesy credit is not money in); null: needs the records. */
  net_inflow: money.nullable(),
  hours: z.array(z.object({ hour: instant, topups: money, withdrawals: money })),
  by_day: z.array(z.object({ day_id: z.string(), name: z.string(), topups: money, withdrawals: money })),
  by_payment_method: z.array(
    z.object({ payment_method: z.string(), topups: money, withdrawals: money, count }),
  ),
  by_nature: z.array(z.object({ nature: z.string(), topups: money, withdrawals: money, count })),
  /** Null while the day's records are still being mirrored (they need the records). */
  insights: TopupInsights.nullable(),
  latest: Page(TopupRow),
});
export type TopupsDayReport = z.infer<typeof TopupsDayReport>;

export const ScanRow = z.object({
  id: z.string(),
  kind: z.string(),
  reason: z.string().nullable(),
  zone: z.string().nullable(),
  ticket_code: z.string().nullable(),
  device_id: z.string().nullable(),
  occurred_at: instant,
});
export type ScanRow = z.infer<typeof ScanRow>;

export const ScansDayReport = LiveContext.extend({
  day: LiveDay.nullable(),
  totals: z.object({ allowed: count, denied: count }),
  /** Zones of the day's scans; `name` null for scans without a zone (check-ins): the screen names them. */
  zones: z.array(z.object({ zone_id: z.string(), name: z.string().nullable() })),
  /** Per hour: allowed and denied per zone id. */
  hours: z.array(
    z.object({ hour: instant, allowed: count, denied: count, by_zone: z.record(z.string(), count) }),
  ),
  by_zone: z.array(
    z.object({ zone_id: z.string(), name: z.string().nullable(), allowed: count, denied: count }),
  ),
  denied_by_reason: z.array(z.object({ reason: z.string(), count })),
  latest_denials: z.array(ScanRow),
});
export type ScansDayReport = z.infer<typeof ScansDayReport>;
