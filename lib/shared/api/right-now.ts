import { z } from "zod";
import { AlertKind, AlertSeverity, TerminalState } from "./attention";
import { CountAmount, LiveContext, LiveDay } from "./sales";

/**
 * The answer of `GET /api/live/right-now` (issue 27): what happened in the last 15 minutes, by
 * `occurred_at` in the event's zone, from the mirror. Money is in minor units of `event.currency`.
 * Paid top-ups and promo credit are two figures, never one sum.
 */

const count = z.number();
const money = z.number();
const instant = z.string();

export const RIGHT_NOW_MINUTES = 15;

/** The window: RIGHT_NOW_MINUTES event-local minutes, the last one the current (partial) minute. */
export const RightNowWindow = z.object({ from: instant, to: instant });
export type RightNowWindow = z.infer<typeof RightNowWindow>;

export const RightNowReport = LiveContext.extend({
  /** The instant the figures were read for (the server's clock). */
  now: instant,
  window: RightNowWindow,
  /** The event day holding now (or the last one started), null before the event has days. */
  day: LiveDay.nullable(),
  /**
   * The same event-local clock window on the previous event day (null on the first day): its
   * figures compare with today's.
   */
  previous_day: LiveDay.nullable(),
  previous_window: RightNowWindow.nullable(),
  sales: z.object({
    count,
    total: money,
    /** The previous day's same window (null: first day, or its records still being mirrored). */
    previous: z.object({ count, total: money }).nullable(),
    /** One row per minute of the window, oldest first; `previous_total` the same clock minute before. */
    per_minute: z.array(z.object({ minute: instant, count, total: money, previous_total: money.nullable() })),
  }),
  /** Allowed check-ins and access checks by zone (door scans), and the denials beside them. */
  entries: z.object({
    allowed: count,
    denied: count,
    by_zone: z.array(z.object({ zone_id: z.string(), name: z.string(), allowed: count, denied: count })),
  }),
  /** Top-ups loaded: paid money, promo credit (bonus and courtesy), and withdrawals, apart. */
  topups: z.object({ paid: CountAmount, promo: CountAmount, withdrawals: CountAmount }),
  /** Terminals whose stored state is not live (quiet, offline syncing late, back), and idle ones. */
  terminals: z.object({
    not_live: count,
    idle: count,
    items: z.array(z.object({ device_id: z.string(), state: TerminalState, since: instant })),
  }),
  /** Open alerts the reader's role sees, and the three most severe (newest first within a severity). */
  alerts: z.object({
    open: count,
    top: z.array(
      z.object({
        id: z.string(),
        kind: AlertKind,
        subject: z.string(),
        severity: AlertSeverity,
        first_seen: instant,
        link: z.string(),
      }),
    ),
  }),
  /** Best-selling products of the window, by money. */
  top_products: z.array(
    z.object({ product_id: z.string(), name: z.string(), quantity: count, total: money }),
  ),
});
export type RightNowReport = z.infer<typeof RightNowReport>;
