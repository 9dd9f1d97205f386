import "server-only";
import type { TailResource } from "@/lib/server/store/mirror";
import { tailResources } from "./backfill";

/**
 * When the tails are polled between cycles: the sales tail every poll, top-ups and scans every third.
 * Pure arithmetic, so the worker's loop keeps only the decisions.
 */

/**
 * Share of each read window (a minute, as the spec's limits are per minute) the walk of older days
 * leaves to the tail polls, which are spread over the window: the walk takes the rest.
 */
export const BACKFILL_TAIL_SHARE = 0.1;
/** Requests of a tail poll on average: sales each time, top-ups and scans every third. */
const REQUESTS_PER_POLL = 5 / 3;

/**
 * Milliseconds between two tail polls: `tailIntervalMs`, or while older days are walked, as many
 * polls as their share of the read window allows (never more often than `tailIntervalMs`).
 */
export function pollIntervalMs(
  tailIntervalMs: number,
  backfilling: boolean,
  readLimit: number | undefined,
): number {
  if (!backfilling || !readLimit) return tailIntervalMs;
  const polls = Math.max(1, (readLimit * BACKFILL_TAIL_SHARE) / REQUESTS_PER_POLL);
  return Math.max(tailIntervalMs, Math.ceil(60_000 / polls));
}

/** Requests the polls ask for over `spanMs`, `followed` tails being followed (sales among them). */
export function pollRequests(spanMs: number, intervalMs: number, followed: number): number {
  if (intervalMs <= 0 || followed === 0) return 0;
  const polls = Math.ceil(Math.max(0, spanMs) / intervalMs);
  return polls + Math.ceil(polls / 3) * (followed - 1);
}

/** The tails the poll numbered `poll` (from 0) asks for: every tail each third poll, else sales. */
export function tailsOfPoll(poll: number): readonly TailResource[] {
  return poll % 3 === 0 ? tailResources : (["sales"] as const);
}
