import "server-only";
import type { TailResource } from "@/lib/server/store/mirror";
import { tailResources } from "./backfill";

/**
 * When the tails are polled between cycles: the sales tail every poll, top-ups and scans every third.
 * Pure arithmetic, so the worker's loop keeps only the decisions.
 */

/**
 * While older days are walked, the most the tail polls may take of what the worker may spend in a
 * read window (the quota less the lookups' reserve): at the default quota (120 reads a minute, 72
 * for the worker) they keep their 3 s rhythm (about 33 requests) and the walk takes what is left.
 * Only a small quota stretches the polls, so that the walk still moves.
 */
export const BACKFILL_TAIL_SHARE = 0.75;
/** Requests of a tail poll on average: sales each time, top-ups and scans every third. */
const REQUESTS_PER_POLL = 5 / 3;

/**
 * Milliseconds between two tail polls: `tailIntervalMs`; while older days are walked too, unless the
 * polls would take more than their share of the worker's part of the window (never more often than
 * `tailIntervalMs`). `reserveFraction` is the share of the quota the worker never spends (lookups').
 */
export function pollIntervalMs(
  tailIntervalMs: number,
  backfilling: boolean,
  readLimit: number | undefined,
  reserveFraction = 0.4,
): number {
  if (!backfilling || !readLimit) return tailIntervalMs;
  const spendable = readLimit - Math.ceil(readLimit * reserveFraction);
  const polls = Math.max(1, (spendable * BACKFILL_TAIL_SHARE) / REQUESTS_PER_POLL);
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
