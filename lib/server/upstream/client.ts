import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import {
  AccessCheck,
  type AccessCheckRequest,
  type CheckInRequest,
  Checkin,
  type CreateTopupRequest,
  Day,
  ErrorBody,
  type ErrorType,
  Event,
  ListEnvelope,
  type NewTicket,
  Ping,
  PlainList,
  type RateLimitBucket,
  type ReviewRequest,
  SalesSummary,
  Ticket,
  type TicketStatus,
  TicketType,
  Topup,
  TopupBonusQuote,
  Transaction,
  Wristband,
  type WristbandStatus,
  Zone,
} from "@/lib/contract";

/**
 * Typed client of the Integration API v1. Every answer is parsed with the contract's schemas
 * (unknown fields are dropped, never an error); every failure is an `ApiError`.
 *
 * Retries: 429 waits `retry-after` then retries (bounded); GETs retry 5xx and network failures with
 * exponential backoff and jitter; POSTs retry only 5xx / network failures (and a 409
 * `idempotency_key_in_use` that follows one), always with the same `Idempotency-Key`.
 */

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Codes the client makes up when the upstream gave no error envelope. */
export type SyntheticErrorCode = "network_error" | "timeout" | "invalid_response";

/** An upstream failure: the error envelope's fields, or a synthetic one (status 0 = no HTTP answer). */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | undefined;
  readonly request_id: string | null;
  /** Seconds from `retry-after`, when the answer had one. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    status: number;
    type: ErrorType;
    code: string;
    message: string;
    param?: string;
    request_id?: string | null;
    retryAfter?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param;
    this.request_id = init.request_id ?? null;
    this.retryAfter = init.retryAfter;
  }

  /** No HTTP answer at all (connection refused, reset, DNS, timeout). */
  get isNetwork(): boolean {
    return this.status === 0;
  }

  toJSON() {
    return {
      status: this.status,
      type: this.type,
      code: this.code,
      message: this.message,
      param: this.param,
      request_id: this.request_id,
    };
  }
}

/**
 * Whether err is an ApiError. Checked by shape, not instanceof: Next bundles server code more than
 * once (instrumentation, route handlers), and the shared client's errors may come from another copy.
 */
export function isApiError(err: unknown): err is ApiError {
  return (
    err instanceof Error &&
    err.name === "ApiError" &&
    typeof (err as ApiError).status === "number" &&
    typeof (err as ApiError).code === "string"
  );
}

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
}

export interface UpstreamClientOptions {
  /** Base address including the version, e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  sleep?: Sleep;
  now?: () => Date;
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

const lists = {
  ticket: ListEnvelope(Ticket),
  wristband: ListEnvelope(Wristband),
  transaction: ListEnvelope(Transaction),
  topup: ListEnvelope(Topup),
  checkin: ListEnvelope(Checkin),
};
const plain = { day: PlainList(Day), zone: PlainList(Zone), ticketType: PlainList(TicketType) };

function listSchema(path: string): z.ZodType<ListPage<unknown>> {
  if (path === "/tickets") return lists.ticket;
  if (path === "/wristbands") return lists.wristband;
  if (path === "/topups") return lists.topup;
  if (path === "/checkins") return lists.checkin;
  if (path === "/transactions" || /^\/wristbands\/[^/]+\/transactions$/.test(path)) return lists.transaction;
  throw new Error(`Not a paginated list path: ${path}`);
}

type Query = Record<string, string | number | Date | string[] | number[] | undefined | null>;

/** setTimeout as a promise, rejected with the signal's reason on abort. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

const seg = (value: string) => encodeURIComponent(value);

export class UpstreamClient {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetchImpl: FetchLike;
  private readonly sleepImpl: Sleep;
  private readonly nowImpl: () => Date;
  private readonly random: () => number;
  private readonly maxAttempts: number;
  private readonly maxRateLimitRetries: number;
  private readonly maxRetryAfterSeconds: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly timeoutMs: number;
  private readonly limits = new Map<RateLimitBucket, RateLimitState>();
  /** Counters since construction: HTTP attempts, retries, 429 answers. */
  readonly stats = { requests: 0, retries: 0, rateLimited: 0 };

  constructor(options: UpstreamClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleepImpl = options.sleep ?? defaultSleep;
    this.nowImpl = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.maxRateLimitRetries = Math.max(0, options.maxRateLimitRetries ?? 3);
    this.maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? 120;
    this.baseDelayMs = options.baseDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 8000;
    this.timeoutMs = options.timeoutMs ?? 20_000;
  }

  /** The client's clock (the one `resetAt` is computed with). */
  now(): Date {
    return this.nowImpl();
  }

  /** The last seen `x-ratelimit-*` state of a bucket, or null before any answer carried one. */
  rateLimit(bucket: RateLimitBucket = "read"): RateLimitState | null {
    return this.limits.get(bucket) ?? null;
  }

  /** The read bucket's last seen state (the sync worker keeps 40 % of it for interactive lookups). */
  get readQuota(): RateLimitState | null {
    return this.rateLimit("read");
  }

  // ── reads ────────────────────────────────────────────────────────────────────────────────

  ping(opts?: RequestOptions) {
    return this.get("/ping", {}, Ping, opts);
  }
  event(opts?: RequestOptions) {
    return this.get("/event", {}, Event, opts);
  }
  async days(opts?: RequestOptions): Promise<Day[]> {
    return (await this.get("/days", {}, plain.day, opts)).data;
  }
  async zones(opts?: RequestOptions): Promise<Zone[]> {
    return (await this.get("/zones", {}, plain.zone, opts)).data;
  }
  async ticketTypes(opts?: RequestOptions): Promise<TicketType[]> {
    return (await this.get("/ticket-types", {}, plain.ticketType, opts)).data;
  }
  tickets(params: TicketListParams = {}, opts?: RequestOptions): Promise<ListPage<Ticket>> {
    return this.get("/tickets", { ...params }, lists.ticket, opts);
  }
  ticketByCode(code: string, opts?: RequestOptions) {
    return this.get(`/tickets/${seg(code)}`, {}, Ticket, opts);
  }
  wristbands(params: WristbandListParams = {}, opts?: RequestOptions): Promise<ListPage<Wristband>> {
    return this.get("/wristbands", { ...params }, lists.wristband, opts);
  }
  wristbandByCode(code: string, opts?: RequestOptions) {
    return this.get(`/wristbands/${seg(code)}`, {}, Wristband, opts);
  }
  wristbandTransactions(
    code: string,
    params: SalesListParams = {},
    opts?: RequestOptions,
  ): Promise<ListPage<Transaction>> {
    return this.get(`/wristbands/${seg(code)}/transactions`, { ...params }, lists.transaction, opts);
  }
  transactions(params: SalesListParams = {}, opts?: RequestOptions): Promise<ListPage<Transaction>> {
    return this.get("/transactions", { ...params }, lists.transaction, opts);
  }
  topups(params: TopupListParams = {}, opts?: RequestOptions): Promise<ListPage<Topup>> {
    return this.get("/topups", { ...params }, lists.topup, opts);
  }
  checkins(params: CheckinListParams = {}, opts?: RequestOptions): Promise<ListPage<Checkin>> {
    return this.get("/checkins", { ...params }, lists.checkin, opts);
  }
  quote(params: QuoteParams, opts?: RequestOptions) {
    return this.get("/topup-bonuses/quote", { ...params }, TopupBonusQuote, opts);
  }
  salesSummary(params: { day_id?: string } = {}, opts?: RequestOptions) {
    return this.get("/reports/sales-summary", { ...params }, SalesSummary, opts);
  }

  /**
   * Every page of a list, following `next_cursor` while `has_more` is true. A short (or empty)
   * page says nothing about the end: only `has_more` does.
   */
  async *pages<P extends ListPath>(
    path: P,
    params: ListParams<P> = {} as ListParams<P>,
    opts?: RequestOptions,
  ): AsyncGenerator<ListPage<ListItem<P>>, void, undefined> {
    const schema = listSchema(path) as unknown as z.ZodType<ListPage<ListItem<P>>>;
    let cursor = params.starting_after;
    for (;;) {
      const page = await this.get(path, { ...params, starting_after: cursor }, schema, opts);
      yield page;
      if (!page.has_more) return;
      if (!page.next_cursor) {
        throw new ApiError({
          status: 200,
          type: "api_error",
          code: "invalid_response",
          message: `${path}: has_more is true but next_cursor is null.`,
        });
      }
      cursor = page.next_cursor;
    }
  }

  /** Every item of a list (all pages). */
  async *items<P extends ListPath>(
    path: P,
    params: ListParams<P> = {} as ListParams<P>,
    opts?: RequestOptions,
  ): AsyncGenerator<ListItem<P>, void, undefined> {
    for await (const page of this.pages(path, params, opts)) yield* page.data;
  }

  // ── writes (each needs an Idempotency-Key; one per logical call, reused on retries) ─────────

  createTickets(tickets: NewTicket[], opts?: RequestOptions): Promise<ListPage<Ticket>> {
    return this.post("/tickets", { tickets }, lists.ticket, "write", opts);
  }
  cancelTicket(code: string, opts?: RequestOptions) {
    return this.post(`/tickets/${seg(code)}/cancel`, undefined, Ticket, "write", opts);
  }
  checkIn(code: string, body: CheckInRequest, opts?: RequestOptions) {
    return this.post(`/tickets/${seg(code)}/check-in`, body, Ticket, "checkin", opts);
  }
  accessCheck(body: AccessCheckRequest, opts?: RequestOptions) {
    return this.post("/access-checks", body, AccessCheck, "access", opts);
  }
  createTopup(body: CreateTopupRequest, opts?: RequestOptions) {
    return this.post("/topups", body, Topup, "write", opts);
  }
  reviewWristband(code: string, body: ReviewRequest = { decision: "keep" }, opts?: RequestOptions) {
    return this.post(`/wristbands/${seg(code)}/review`, body, Wristband, "write", opts);
  }

  // ── transport ───────────────────────────────────────────────────────────────────────────

  private get<T>(path: string, query: Query, schema: z.ZodType<T>, opts?: RequestOptions): Promise<T> {
    return this.send({ method: "GET", path, query, schema, bucket: "read", opts });
  }

  private post<T>(
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    bucket: RateLimitBucket,
    opts?: RequestOptions,
  ): Promise<T> {
    const idempotencyKey = opts?.idempotencyKey ?? randomUUID();
    return this.send({ method: "POST", path, body, schema, bucket, opts, idempotencyKey });
  }

  private url(path: string, query: Query = {}): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      if (value instanceof Date) search.set(name, value.toISOString());
      else if (Array.isArray(value)) search.set(name, value.join(","));
      else search.set(name, String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ""}`;
  }

  private async send<T>(req: {
    method: "GET" | "POST";
    path: string;
    query?: Query;
    body?: unknown;
    schema: z.ZodType<T>;
    bucket: RateLimitBucket;
    opts?: RequestOptions;
    idempotencyKey?: string;
  }): Promise<T> {
    const url = this.url(req.path, req.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: "application/json",
    };
    if (req.method === "POST") headers["idempotency-key"] = req.idempotencyKey!;
    if (req.body !== undefined) headers["content-type"] = "application/json";
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const signal = req.opts?.signal;

    let failures = 0; // 5xx / network, counted against maxAttempts
    let rateLimited = 0;
    let transportFailed = false; // a POST that may have reached the server
    for (;;) {
      signal?.throwIfAborted();
      await req.opts?.beforeAttempt?.(req.bucket);
      this.stats.requests++;
      let error: ApiError;
      try {
        const response = await this.attempt(url, { method: req.method, headers, body }, signal);
        this.track(req.bucket, response.headers);
        req.opts?.onResponse?.({
          status: response.status,
          requestId: response.headers.get("x-request-id"),
          replayed: response.headers.get("idempotent-replayed") === "true",
        });
        const result = await this.read(response, req.schema);
        if (result.ok) return result.value;
        error = result.error;
      } catch (err) {
        if (signal?.aborted) throw signal.reason ?? err;
        if (!(err instanceof ApiError)) throw err;
        error = err;
      }

      // 429: the request did not run; wait as told, then try again (bounded).
      if (error.status === 429) {
        this.stats.rateLimited++;
        const wait = error.retryAfter ?? 1;
        if (rateLimited >= this.maxRateLimitRetries || wait > this.maxRetryAfterSeconds) throw error;
        rateLimited++;
        this.stats.retries++;
        await this.sleepImpl(wait * 1000, signal);
        continue;
      }
      const transient = error.isNetwork || error.status >= 500;
      // The first attempt may still be running upstream: the same key will soon replay its answer.
      const inUse = error.code === "idempotency_key_in_use" && transportFailed;
      if (!transient && !inUse) throw error;
      if (req.method === "POST" && transient) transportFailed = true;
      failures++;
      if (failures >= this.maxAttempts) throw error;
      this.stats.retries++;
      const backoff = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (failures - 1));
      const jittered = backoff / 2 + this.random() * (backoff / 2);
      await this.sleepImpl(Math.max(jittered, (error.retryAfter ?? 0) * 1000), signal);
    }
  }

  /** One HTTP exchange; a failure without an answer becomes a synthetic ApiError. */
  private async attempt(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await this.fetchImpl(url, { ...init, signal: combined });
    } catch (err) {
      if (signal?.aborted) throw err;
      const timedOut = timeout.aborted;
      throw new ApiError({
        status: 0,
        type: "api_error",
        code: timedOut ? "timeout" : "network_error",
        message: timedOut
          ? `No answer from ${init.method} ${url} within ${this.timeoutMs} ms.`
          : `Could not reach ${init.method} ${url}: ${(err as Error)?.message ?? String(err)}`,
        cause: err,
      });
    }
  }

  private async read<T>(
    response: Response,
    schema: z.ZodType<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; error: ApiError }> {
    const requestId = response.headers.get("x-request-id");
    const retryAfterHeader = Number(response.headers.get("retry-after"));
    const retryAfter =
      Number.isFinite(retryAfterHeader) && retryAfterHeader >= 0 && response.headers.has("retry-after")
        ? Math.ceil(retryAfterHeader)
        : undefined;
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      return {
        ok: false,
        error: new ApiError({
          status: 0,
          type: "api_error",
          code: "network_error",
          message: `The answer was cut off: ${(err as Error).message}`,
          request_id: requestId,
          cause: err,
        }),
      };
    }
    let json: unknown;
    let isJson = true;
    try {
      json = JSON.parse(text);
    } catch {
      isJson = false;
    }
    if (!response.ok) {
      const envelope = isJson ? ErrorBody.safeParse(json) : null;
      if (envelope?.success) {
        const e = envelope.data.error;
        return {
          ok: false,
          error: new ApiError({
            status: response.status,
            type: e.type,
            code: e.code,
            message: e.message,
            param: e.param,
            request_id: e.request_id,
            retryAfter,
          }),
        };
      }
      return {
        ok: false,
        error: new ApiError({
          status: response.status,
          type: response.status === 429 ? "rate_limit_error" : "api_error",
          code: response.status === 429 ? "rate_limit_exceeded" : "invalid_response",
          message: `HTTP ${response.status} without an error envelope: ${text.slice(0, 200)}`,
          request_id: requestId,
          retryAfter,
        }),
      };
    }
    const parsed = isJson ? schema.safeParse(json) : null;
    if (parsed?.success) return { ok: true, value: parsed.data };
    const issues = parsed ? parsed.error.issues.slice(0, 3) : [];
    return {
      ok: false,
      error: new ApiError({
        status: response.status,
        type: "api_error",
        code: "invalid_response",
        message: isJson
          ? `The answer does not match the contract: ${issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`
          : `The answer is not JSON: ${text.slice(0, 200)}`,
        request_id: requestId,
      }),
    };
  }

  private track(bucket: RateLimitBucket, headers: Headers) {
    const limit = Number(headers.get("x-ratelimit-limit"));
    const remaining = Number(headers.get("x-ratelimit-remaining"));
    const reset = Number(headers.get("x-ratelimit-reset"));
    if (!headers.has("x-ratelimit-limit") || ![limit, remaining, reset].every(Number.isFinite)) return;
    const observedAt = this.nowImpl();
    this.limits.set(bucket, {
      limit,
      remaining,
      resetAt: new Date(observedAt.getTime() + reset * 1000),
      observedAt,
    });
  }
}
