import "server-only";
import type { Alert } from "@/lib/shared/api/attention";
import type { AlertCondition } from "../store/attention";
import type { AttentionSettings, NightMoved } from "../terminals";

/**
 * Which alerts hold now (pure: the tests build the inputs). Each condition names its kind and
 * subject; an open alert of the same kind and subject goes on, one whose condition ended resolves.
 */

export const REFUND_WINDOW_MS = 15 * 60_000;
/** Fewer refunds than this in the window never make a spike (a quiet desk's two refunds are not one). */
export const REFUND_SPIKE_MIN = 5;
const REFUND_SPIKE_FACTOR = 3;
/** Less of the day than this before the window: its refund rate is not known yet. */
export const REFUND_HISTORY_MS = 60 * 60_000;
const REVIEW_WAIT_MS = 60 * 60_000;

export interface TerminalFacts {
  device_id: string;
  state: "live" | "quiet" | "late" | "back" | "idle";
  last_occurred_at: string | null;
  last_created_at: string | null;
  burst: NightMoved[];
}

export interface RefundFacts {
  /** A device id, or "*" for the whole event. */
  subject: string;
  /** Refunds in the last 15 minutes. */
  window: number;
  /** Refunds today before the window. */
  before: number;
  /** Time of today before the window (ms). */
  beforeMs: number;
  /** Refunds of the days before today, and their opening time (ms; 0 on the first day). */
  earlier: number;
  earlierMs: number;
}

export interface AttentionFacts {
  now: Date;
  /** The event is trading: inside a day's opening hours, or records are arriving. */
  trading: boolean;
  terminals: TerminalFacts[];
  signedNights: {
    day_id: string;
    signed_at: string;
    signed: { total: number; count: number; topups: number; withdrawals: number };
    now: { total: number; count: number; topups: number; withdrawals: number };
    /** Late records that arrived after the sign-off, per terminal (the adjustments). */
    lateDevices: number;
  }[];
  mismatchedNights: { day_id: string; upstream_total: number; mirror_total: number }[];
  sync: {
    intervalMs: number;
    heartbeatAt: string | null;
    pausedUntil: string | null;
    resources: { resource: string; lastSuccessAt: string | null; failing: boolean }[];
  };
  refunds: RefundFacts[];
  /** Wristbands seen below zero by records that arrived within the last hour. */
  negative: { wristbands: number; lowest: number | null };
  review: { count: number; oldest: string | null };
}

const minutesBetween = (a: number, b: string | null) =>
  b === null ? null : Math.round((a - Date.parse(b)) / 60_000);

function terminalConditions(f: AttentionFacts, s: AttentionSettings): AlertCondition[] {
  if (!f.trading) return [];
  const t = f.now.getTime();
  return f.terminals.flatMap((x): AlertCondition[] => {
    const link = `/terminals/${encodeURIComponent(x.device_id)}`;
    if (x.state === "late")
      return [
        {
          kind: "terminal_late",
          subject: x.device_id,
          severity: "warning",
          figures: {
            device_id: x.device_id,
            behind_minutes: minutesBetween(Date.parse(x.last_created_at ?? ""), x.last_occurred_at),
          },
          link,
        },
      ];
    const silentMs = x.last_occurred_at ? t - Date.parse(x.last_occurred_at) : 0;
    if (x.state === "quiet" && silentMs > s.alertMs)
      return [
        {
          kind: "terminal_quiet",
          subject: x.device_id,
          severity: "warning",
          figures: { device_id: x.device_id, silent_minutes: Math.floor(silentMs / 60_000) },
          link,
        },
      ];
    return [];
  });
}

function nightConditions(f: AttentionFacts): AlertCondition[] {
  const moved = f.signedNights.flatMap((n): AlertCondition[] => {
    const delta = {
      sales_delta: n.now.total - n.signed.total,
      count_delta: n.now.count - n.signed.count,
      topups_delta: n.now.topups - n.signed.topups,
      withdrawals_delta: n.now.withdrawals - n.signed.withdrawals,
    };
    if (Object.values(delta).every((v) => v === 0)) return [];
    return [
      {
        kind: "signed_night_moved",
        subject: n.day_id,
        severity: "critical",
        figures: { day_id: n.day_id, signed_at: n.signed_at, ...delta, terminals: n.lateDevices },
        link: `/reconciliation?day_id=${encodeURIComponent(n.day_id)}`,
      },
    ];
  });
  const mismatched = f.mismatchedNights.map(
    (n): AlertCondition => ({
      kind: "night_mismatch",
      subject: n.day_id,
      severity: "critical",
      figures: { day_id: n.day_id, upstream_total: n.upstream_total, mirror_total: n.mirror_total },
      link: `/reconciliation?day_id=${encodeURIComponent(n.day_id)}`,
    }),
  );
  return [...moved, ...mismatched];
}

/** Stalled: no heartbeat for 3 intervals; failing or paused on the quota: no success for 2 cycles. */
function syncConditions(f: AttentionFacts): AlertCondition[] {
  const t = f.now.getTime();
  const { intervalMs, heartbeatAt } = f.sync;
  const out: AlertCondition[] = [];
  const link = "/connection";
  if (heartbeatAt !== null && t - Date.parse(heartbeatAt) > 3 * intervalMs)
    out.push({
      kind: "sync_stalled",
      subject: "worker",
      severity: "critical",
      figures: { silent_minutes: minutesBetween(t, heartbeatAt) },
      link,
    });
  const overdue = (at: string | null) => at === null || t - Date.parse(at) > 2 * intervalMs;
  for (const r of f.sync.resources)
    if (r.failing && r.lastSuccessAt !== null && overdue(r.lastSuccessAt))
      out.push({
        kind: "sync_failing",
        subject: r.resource,
        severity: "warning",
        figures: { resource: r.resource, minutes_since_success: minutesBetween(t, r.lastSuccessAt) },
        link,
      });
  const sales = f.sync.resources.find((r) => r.resource === "sales");
  const paused = f.sync.pausedUntil !== null && Date.parse(f.sync.pausedUntil) > t;
  if (paused && sales && sales.lastSuccessAt !== null && overdue(sales.lastSuccessAt))
    out.push({
      kind: "sync_quota",
      subject: "read",
      severity: "warning",
      figures: {
        paused_until: f.sync.pausedUntil,
        minutes_since_success: minutesBetween(t, sales.lastSuccessAt),
      },
      link,
    });
  return out;
}

/**
 * The normal refunds of 15 minutes: the day's rate before the window, or while the day has had less
 * than REFUND_HISTORY_MS of it (its opening rush is not a rate yet), the earlier days' rate.
 */
export function normalRefunds(r: RefundFacts): { per15Min: number; from: "today" | "earlier_days" } {
  const earlier = r.beforeMs < REFUND_HISTORY_MS && r.earlierMs > 0;
  const [refunds, ms] = earlier ? [r.earlier, r.earlierMs] : [r.before, r.beforeMs];
  return {
    per15Min: ms > 0 ? (refunds * REFUND_WINDOW_MS) / ms : 0,
    from: earlier ? "earlier_days" : "today",
  };
}

/**
 * A refund spike: at least REFUND_SPIKE_MIN refunds in the last 15 minutes, more than three times
 * the normal rate (normalRefunds; the first hour of the first day, none: any such burst).
 */
export function isRefundSpike(r: RefundFacts): boolean {
  return r.window >= REFUND_SPIKE_MIN && r.window > REFUND_SPIKE_FACTOR * normalRefunds(r).per15Min;
}

function refundConditions(f: AttentionFacts): AlertCondition[] {
  return f.refunds.filter(isRefundSpike).map((r) => ({
    kind: "refund_spike",
    subject: r.subject,
    severity: "warning",
    figures: {
      device_id: r.subject === "*" ? null : r.subject,
      refunds_15_min: r.window,
      normal_15_min: Math.round(normalRefunds(r).per15Min * 10) / 10,
      normal_from: normalRefunds(r).from,
    },
    link: r.subject === "*" ? "/topups" : `/terminals/${encodeURIComponent(r.subject)}`,
  }));
}

function negativeConditions(f: AttentionFacts): AlertCondition[] {
  if (f.negative.wristbands === 0) return [];
  return [
    {
      kind: "negative_balance",
      subject: "wristbands",
      severity: "warning",
      figures: { wristbands: f.negative.wristbands, lowest: f.negative.lowest },
      link: "/topups",
    },
  ];
}

function reviewConditions(f: AttentionFacts): AlertCondition[] {
  if (f.review.count === 0) return [];
  return [
    {
      kind: "review_waiting",
      subject: "queue",
      severity: "info",
      figures: { waiting: f.review.count, oldest_minutes: minutesBetween(f.now.getTime(), f.review.oldest) },
      link: "/review",
    },
  ];
}

export const REVIEW_WAITING_MS = REVIEW_WAIT_MS;
/** How far back a negative balance is new. */
export const NEGATIVE_WINDOW_MS = 60 * 60_000;

export function alertConditions(f: AttentionFacts, s: AttentionSettings): AlertCondition[] {
  return [
    ...terminalConditions(f, s),
    ...nightConditions(f),
    ...syncConditions(f),
    ...refundConditions(f),
    ...negativeConditions(f),
    ...reviewConditions(f),
  ];
}

export interface AlertChanges {
  opened: AlertCondition[];
  continued: { id: string; condition: AlertCondition }[];
  resolved: string[];
}

/** What to do with the open alerts given the conditions that hold now. */
export function alertChanges(
  open: Pick<Alert, "id" | "kind" | "subject">[],
  holding: AlertCondition[],
): AlertChanges {
  const key = (a: { kind: string; subject: string }) => `${a.kind}\u0000${a.subject}`;
  const openByKey = new Map(open.map((a) => [key(a), a]));
  const holdingKeys = new Set(holding.map(key));
  return {
    opened: holding.filter((c) => !openByKey.has(key(c))),
    continued: holding.flatMap((c) => {
      const a = openByKey.get(key(c));
      return a ? [{ id: a.id, condition: c }] : [];
    }),
    resolved: open.filter((a) => !holdingKeys.has(key(a))).map((a) => a.id),
  };
}
