/**
 * What the console's push stream (server-sent events, `GET /api/stream`) tells a browser: which
 * part of the mirror changed. A live endpoint declares the topics that refresh it (`pushedBy`).
 */
export const pushTopics = ["sales", "topups", "scans", "cycle", "alerts", "night", "sync"] as const;

/**
 * - `sales`, `topups`, `scans`: a tail poll wrote records of that list;
 * - `cycle`: a sync cycle ended (the catalog, the summaries, the review queue, the terminals' states);
 * - `alerts`: an alert opened or closed (or was acknowledged);
 * - `night`: a night was signed off, approved or waived;
 * - `sync`: the sync's health changed (a resource failed).
 */
export type PushTopic = (typeof pushTopics)[number];

export const isPushTopic = (value: unknown): value is PushTopic =>
  typeof value === "string" && (pushTopics as readonly string[]).includes(value);

/** The stream's event names: a change of topics, "refetch everything", a keep-alive. */
export const PUSH_EVENT = { change: "change", reset: "reset", heartbeat: "heartbeat" } as const;

/** A `change` event's data (JSON). */
export interface PushChange {
  topics: PushTopic[];
  /** When the instance that emitted it saw the change (ms since epoch). */
  at: number;
}
