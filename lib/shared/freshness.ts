/**
 * How old a live panel's figures are, and whether they are stale (issue 27): the one rule every live
 * panel follows. Pure: the panels give it the data's `as_of`, the browser's clock, the sync's health
 * as the answer carried it and the push stream's state; it ticks every second on screen.
 */

/** Figures older than this (the mirror's last successful sales sync) are stale. */
export const STALE_AFTER_MS = 90_000;

/**
 * Why figures may be old, most telling first: the sync worker is not running, the sync is failing,
 * the worker is paused for the upstream's read quota, the browser's refresh fails (the console is
 * unreachable), the push stream is down; `sync_behind` when none of these is known.
 */
export const staleReasons = [
  "sync_stopped",
  "sync_failing",
  "quota",
  "refresh_failing",
  "stream_down",
  "sync_behind",
] as const;
export type StaleReason = (typeof staleReasons)[number];

/** The sync's health as a live answer carries it (LiveContext.sync and mirror.paused_until). */
export interface SyncHealth {
  worker_stale: boolean | null;
  failing: string[];
  /** The worker waits for the read quota until then (null: not paused). */
  paused_until: string | null;
}

/** The push stream's state (components/ui/stream-status.ts). */
export type StreamStateName = "connecting" | "open" | "reconnecting" | "off";

export interface FreshnessInput {
  /** The figures' as-of instant (ISO or ms); null: never synced (the first mirror says so). */
  asOf: string | number | null;
  /** The browser's clock, ms since epoch. */
  now: number;
  sync: SyncHealth | null;
  stream: StreamStateName;
  /** The last refresh of the panel failed (its figures are the last ones it had). */
  refreshFailing?: boolean;
}

export interface Freshness {
  /** Whole seconds since `asOf` (null: no as-of). */
  age: number | null;
  stale: boolean;
  /** Why, when stale (empty when fresh). */
  reasons: StaleReason[];
}

const toMs = (at: string | number) => (typeof at === "number" ? at : Date.parse(at));

export function freshness({ asOf, now, sync, stream, refreshFailing = false }: FreshnessInput): Freshness {
  if (asOf === null) return { age: null, stale: false, reasons: [] };
  const ageMs = Math.max(0, now - toMs(asOf));
  const age = Math.floor(ageMs / 1000);
  if (ageMs <= STALE_AFTER_MS) return { age, stale: false, reasons: [] };
  const reasons: StaleReason[] = [];
  if (sync?.worker_stale) reasons.push("sync_stopped");
  if (sync && sync.failing.length > 0) reasons.push("sync_failing");
  if (sync?.paused_until && toMs(sync.paused_until) > now) reasons.push("quota");
  if (refreshFailing) reasons.push("refresh_failing");
  if (stream === "reconnecting" || stream === "off") reasons.push("stream_down");
  if (reasons.length === 0) reasons.push("sync_behind");
  return { age, stale: true, reasons };
}
