import "server-only";
import type {
  Checkin,
  RateLimitBucket,
  Ticket,
  TicketStatus,
  Topup,
  Transaction,
  Wristband,
  WristbandStatus,
} from "@/lib/contract";

/** Options, parameters and pages of the upstream client. */

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The last `x-ratelimit-*` headers seen for one bucket. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the current window ends (observedAt + x-ratelimit-reset seconds). */
  resetAt: Date;
  observedAt: Date;
}

/** Per-call options. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Writes only: the `Idempotency-Key` (a UUID). Generated once per call when absent. */
  idempotencyKey?: string;
  /**
   * Awaited before every HTTP attempt (retries included): the sync worker uses it to hold its
   * requests back when the read quota reaches its reserve, and to count them.
   */
  beforeAttempt?: (bucket: RateLimitBucket) => void | Promise<void>;
  /** Called with every HTTP answer's `x-request-id` and whether it was an idempotent replay (audit log). */
  onResponse?: (info: { status: number; requestId: string | null; replayed: boolean }) => void;
  /**
   * The most this call may spend waiting between attempts (a 429's `retry-after`, backoffs), in ms.
   * A wait that would pass it is not made: the error is thrown at once, its `retryAfter` telling
   * when to come back. Interactive lookups set it (2 s): nobody stares at a spinner for a minute.
   */
  maxWaitMs?: number;
}

export interface UpstreamClientOptions {
  /** Base address including the version, e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  sleep?: Sleep;
  /** The process's clock (`Dashboard.clock`): rate-limit windows and `retry-after` instants are read on it. */
  now: () => Date;
  /** In [0, 1): jitter source. */
  random?: () => number;
  /** Attempts for 5xx / network failures, the first included (default 4). */
  maxAttempts?: number;
  /** Retries after a 429 (default 3). */
  maxRateLimitRetries?: number;
  /** A `retry-after` longer than this is not waited for: the 429 is thrown (default 120 s). */
  maxRetryAfterSeconds?: number;
  /** First backoff delay (default 250 ms), doubled per attempt, capped by maxDelayMs (default 8 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Per attempt (default 20 s). */
  timeoutMs?: number;
  /**
   * The timer of an attempt's timeout: a signal that aborts `ms` after the call (default
   * `AbortSignal.timeout`). A test fires it itself instead of waiting real seconds.
   */
  timeout?: (ms: number) => AbortSignal;
}

export interface PageParams {
  limit?: number;
  starting_after?: string;
}
export type Instant = string | Date;
export interface TicketListParams extends PageParams {
  status?: TicketStatus;
  updated_since?: Instant;
}
export interface WristbandListParams extends PageParams {
  status?: WristbandStatus;
  updated_since?: Instant;
}
export interface SalesListParams extends PageParams {
  day_id?: string;
  since?: Instant;
}
export interface TopupListParams extends SalesListParams {
  direction?: "topup" | "withdraw";
}
export interface CheckinListParams extends SalesListParams {
  zone_id?: string;
}
export interface QuoteParams {
  amounts: number[];
  code?: string;
  pending_rules?: string[];
}

export interface ListPage<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Paginated list paths and what they hold. */
export type ListPath =
  | "/tickets"
  | "/wristbands"
  | "/transactions"
  | "/topups"
  | "/checkins"
  | `/wristbands/${string}/transactions`;
export type ListItem<P extends ListPath> = P extends "/tickets"
  ? Ticket
  : P extends "/wristbands"
    ? Wristband
    : P extends "/topups"
      ? Topup
      : P extends "/checkins"
        ? Checkin
        : Transaction;
export type ListParams<P extends ListPath> = P extends "/tickets"
  ? TicketListParams
  : P extends "/wristbands"
    ? WristbandListParams
    : P extends "/topups"
      ? TopupListParams
      : P extends "/checkins"
        ? CheckinListParams
        : SalesListParams;
