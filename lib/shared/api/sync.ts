import { z } from "zod";
import { MirrorProgress } from "./sales";

/** The sync worker's state as the screens read it (GET /api/connection, every live answer's freshness). */

const counts = z.object({ count: z.number(), amount: z.number() });

/** What the per-day checksum compares: completed records only, as the sales summary counts them. */
export const DayTotals = z.object({
  sales: z.object({ count: z.number(), total: z.number(), total_base: z.number(), total_tax: z.number() }),
  topups: counts,
  withdrawals: counts,
});
export type DayTotals = z.infer<typeof DayTotals>;

/** One mirrored resource's sync health. */
export const SyncResourceStatus = z.object({
  resource: z.string(),
  lastSuccessAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** Seconds since the last success, now (null: never succeeded). */
  secondsSinceSuccess: z.number().nullable(),
  /**
   * At the last success: tails (sales, topups, scans) — seconds between then and the newest
   * mirrored `created_at`; other resources — 0.
   */
  lagSeconds: z.number().nullable(),
  requestsUsed: z.number(),
  recordsSynced: z.number(),
  lastCycleRequests: z.number(),
  lastCycleRecords: z.number(),
  cursor: z.string().nullable(),
  watermark: z.string().nullable(),
  /** The latest error, even if a success followed it (compare `at` with lastSuccessAt). */
  lastError: z
    .object({
      message: z.string(),
      code: z.string().nullable(),
      requestId: z.string().nullable(),
      at: z.string().nullable(),
    })
    .nullable(),
  /** The last attempt failed. */
  failing: z.boolean(),
});
export type SyncResourceStatus = z.infer<typeof SyncResourceStatus>;

export const SyncDayCheck = z.object({
  dayId: z.string(),
  name: z.string().nullable(),
  date: z.string().nullable(),
  checkedAt: z.string(),
  matched: z.boolean(),
  upstream: DayTotals.extend({ generated_at: z.string() }),
  mirror: DayTotals,
  rewalks: z.number(),
  lastRewalkAt: z.string().nullable(),
});
export type SyncDayCheck = z.infer<typeof SyncDayCheck>;

/** The read bucket's `x-ratelimit-*` as last seen. */
export const QuotaState = z.object({
  limit: z.number(),
  remaining: z.number(),
  resetAt: z.coerce.date().transform((d) => d.toISOString()),
  observedAt: z.coerce.date().transform((d) => d.toISOString()),
});
export type QuotaState = z.input<typeof QuotaState>;

export const SyncStatus = z.object({
  /** The instance running the worker (null: no worker ever ran on this store). */
  worker: z
    .object({
      instance: z.string(),
      startedAt: z.string(),
      heartbeatAt: z.string(),
      intervalMs: z.number(),
      cycles: z.number(),
      lastCycleStartedAt: z.string().nullable(),
      lastCycleFinishedAt: z.string().nullable(),
      lastCycleMs: z.number().nullable(),
      lastCycleRequests: z.number().nullable(),
      pausedUntil: z.string().nullable(),
      /** No heartbeat for 3 intervals + 1 minute. */
      stale: z.boolean(),
    })
    .nullable(),
  /** The read bucket's x-ratelimit-* as the worker last saw them, and the share it leaves to screens. */
  quota: z
    .object({ limit: z.number(), remaining: z.number(), resetAt: z.string(), observedAt: z.string() })
    .nullable(),
  resources: z.array(SyncResourceStatus),
  days: z.array(SyncDayCheck),
  /** Latest upstream errors, newest first. */
  errors: z.array(
    z.object({
      at: z.string(),
      resource: z.string(),
      status: z.number().nullable(),
      code: z.string().nullable(),
      message: z.string(),
      requestId: z.string().nullable(),
    }),
  ),
  /** The worker is alive, every resource's last attempt succeeded, every checked day matches. */
  healthy: z.boolean(),
  /** How far the first mirror is, and where each day's figures come from. */
  mirror: MirrorProgress,
});
export type SyncStatus = z.infer<typeof SyncStatus>;
