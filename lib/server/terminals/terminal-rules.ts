import "server-only";
import type { Station, TerminalState } from "@/lib/shared/api/attention";

/**
 * A terminal's state from what the mirror holds about it (pure: the tests build the inputs).
 *
 * - `late` ("offline, syncing late"): it is still sending, and what it sends happened more than
 *   the late threshold ago (its newest arrival came that long after its newest record), with
 *   what its late records moved so far;
 * - `back`: late records of it arrived within the last half hour, and it is neither late nor quiet
 *   again;
 * - `quiet`: nothing has happened on it for longer than its own rhythm says is normal (four times
 *   its usual gap between records: between its last twenty records of the last two hours, else over
 *   today) and at least the quiet minimum (10 minutes);
 * - `idle`: no record today and no late ones arriving (not opened yet, or closed for the day);
 * - `live`: otherwise.
 */

export interface AttentionSettings {
  /** A terminal is quiet after at least this long without a record (default 10 min). */
  quietMs: number;
  /** A record is late when it reaches the upstream more than this after it happened (10 min). */
  lateMs: number;
  /** A terminal quiet or late this long opens an alert (15 min). */
  alertMs: number;
}

export const DEFAULT_ATTENTION: AttentionSettings = {
  quietMs: 10 * 60_000,
  lateMs: 10 * 60_000,
  alertMs: 15 * 60_000,
};

/** How far back the rhythm and the late bursts look. */
export const RHYTHM_WINDOW_MS = 2 * 60 * 60_000;
/**
 * The rhythm is its usual gap between its last this many records (in whole minutes): it follows
 * the pace of the moment (a bar that got busy is missed sooner) rather than two hours' average.
 */
export const RHYTHM_RECORDS = 20;
export const BACK_WINDOW_MS = 30 * 60_000;
/** A rhythm from fewer records than this in the window is taken over the day instead. */
const RHYTHM_MIN_RECORDS = 3;
/** Quiet after this many of its usual gaps. */
const QUIET_GAPS = 4;

export interface NightMoved {
  day_id: string;
  records: number;
  money: number;
}

export interface DeviceActivity {
  deviceId: string;
  /** Today's records (null: none today). */
  today: { records: number; money: number; lateRecords: number; refunds: number } | null;
  /** Newest record's occurred_at and newest arrival (created_at), over every day. */
  lastOccurredAt: Date | null;
  lastCreatedAt: Date | null;
  /**
   * Its newest records within RHYTHM_WINDOW_MS before now (about RHYTHM_RECORDS, whole minutes of
   * them), and when the first of them happened (the start of its minute).
   */
  recentRecords: number;
  recentFirstAt: Date | null;
  /** Late records that arrived within BACK_WINDOW_MS before now, per night. */
  lateArrivals: NightMoved[];
}

export interface StateVerdict {
  state: TerminalState;
  /** The usual gap between its records (ms), when it has one. */
  normalGapMs: number | null;
  /** How long a silence makes it quiet (ms). */
  quietAfterMs: number | null;
  /** What its late records of the last half hour moved, per night (shown for `back`, `late`, `quiet`). */
  burst: NightMoved[];
}

/**
 * Its usual gap between records: when busy enough, between the first and the last of its newest
 * records (a terminal opened ten minutes ago has ten minutes of rhythm, and the silence being judged
 * does not stretch it); else over today so far.
 */
export function normalGap(a: DeviceActivity, now: Date, dayStartedAt: Date | null): number | null {
  if (a.recentRecords >= RHYTHM_MIN_RECORDS && a.lastOccurredAt) {
    const windowStart = now.getTime() - RHYTHM_WINDOW_MS;
    const from = Math.max(windowStart, a.recentFirstAt?.getTime() ?? windowStart);
    return Math.max(a.lastOccurredAt.getTime() - from, 1000) / (a.recentRecords - 1);
  }
  if (!a.today || a.today.records === 0 || !dayStartedAt) return null;
  const elapsed = Math.max(now.getTime() - dayStartedAt.getTime(), 60_000);
  return elapsed / a.today.records;
}

export function terminalState(
  a: DeviceActivity,
  now: Date,
  dayStartedAt: Date | null,
  settings: AttentionSettings,
): StateVerdict {
  const gap = normalGap(a, now, dayStartedAt);
  const quietAfterMs = gap === null ? null : Math.max(settings.quietMs, QUIET_GAPS * gap);
  const verdict = (state: TerminalState, burst: NightMoved[] = []): StateVerdict => ({
    state,
    normalGapMs: gap,
    quietAfterMs,
    burst,
  });
  if (!a.lastOccurredAt || !a.lastCreatedAt) return verdict("idle");
  const t = now.getTime();
  const sending = t - a.lastCreatedAt.getTime() <= settings.lateMs;
  const behind = a.lastCreatedAt.getTime() - a.lastOccurredAt.getTime() > settings.lateMs;
  const burst = a.lateArrivals.filter((n) => n.records > 0);
  // Late records speak for the terminal even on a day it has not sold yet (last night's buffer).
  if (sending && behind) return verdict("late", burst);
  // Silent again after coming back: the silence is what needs looking at now.
  const silent = a.today && quietAfterMs !== null && t - a.lastOccurredAt.getTime() > quietAfterMs;
  if (silent) return verdict("quiet", burst);
  if (burst.length > 0) return verdict("back", burst);
  if (!a.today) return verdict("idle");
  return verdict("live");
}

/** The station a device id suggests (its prefix): bar-01 → bar, topup-02 and refund-01 → top-up desk. */
export function stationOf(deviceId: string): Station {
  const prefix = deviceId.toLowerCase().match(/^[a-z]+/)?.[0] ?? "";
  if (prefix === "bar") return "bar";
  if (prefix === "food") return "food";
  if (prefix === "merch") return "merch";
  if (prefix === "topup" || prefix === "refund" || prefix === "desk") return "topup";
  if (prefix === "gate" || prefix === "door") return "gate";
  return "other";
}
