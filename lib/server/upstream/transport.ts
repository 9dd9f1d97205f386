import "server-only";
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { ErrorBody, type RateLimitBucket } from "@/lib/contract";
import { isUpstreamError, UpstreamError } from "./errors";
import type { FetchLike, RateLimitState, RequestOptions, Sleep, UpstreamClientOptions } from "./types";

/**
 * The HTTP side of the upstream client: one request with its retries (429 waits `retry-after`
 * then retries, bounded; GETs retry 5xx and network failures with exponential backoff and jitter;
 * POSTs retry only 5xx / network failures, and a 409 `idempotency_key_in_use` that follows one,
 * always with the same `Idempotency-Key`), the answer parsed with its schema, and the last seen
 * `x-ratelimit-*` state of each bucket.
 */

export type Query = Record<string, string | number | Date | string[] | number[] | undefined | null>;

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

export class UpstreamTransport {
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
  private readonly timeoutImpl: (ms: number) => AbortSignal;
  private readonly limits = new Map<RateLimitBucket, RateLimitState>();
  /** Counters since construction: HTTP attempts, retries, 429 answers. */
  readonly stats = { requests: 0, retries: 0, rateLimited: 0 };

  constructor(options: UpstreamClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleepImpl = options.sleep ?? defaultSleep;
    this.nowImpl = options.now;
    this.random = options.random ?? Math.random;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.maxRateLimitRetries = Math.max(0, options.maxRateLimitRetries ?? 3);
    this.maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? 120;
    this.baseDelayMs = options.baseDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 8000;
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.timeoutImpl = options.timeout ?? ((ms) => AbortSignal.timeout(ms));
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

  protected get<T>(path: string, query: Query, schema: z.ZodType<T>, opts?: RequestOptions): Promise<T> {
    return this.send({ method: "GET", path, query, schema, bucket: "read", opts });
  }

  protected post<T>(
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
    let waited = 0;
    const maxWait = req.opts?.maxWaitMs ?? Number.POSITIVE_INFINITY;
    const wait = async (ms: number, error: UpstreamError) => {
      if (waited + ms > maxWait) throw error;
      waited += ms;
      await this.sleepImpl(ms, signal);
    };
    for (;;) {
      signal?.throwIfAborted();
      await req.opts?.beforeAttempt?.(req.bucket);
      this.stats.requests++;
      let error: UpstreamError;
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
        if (!isUpstreamError(err)) throw err;
        error = err;
      }

      // 429: the request did not run; wait as told, then try again (bounded).
      if (error.status === 429) {
        this.stats.rateLimited++;
        const retryAfter = error.retryAfter ?? 1;
        if (rateLimited >= this.maxRateLimitRetries || retryAfter > this.maxRetryAfterSeconds) throw error;
        await wait(retryAfter * 1000, error);
        rateLimited++;
        this.stats.retries++;
        continue;
      }
      const transient = error.isNetwork || error.status >= 500;
      // The first attempt may still be running upstream: the same key will soon replay its answer.
      const inUse = error.code === "idempotency_key_in_use" && transportFailed;
      if (!transient && !inUse) throw error;
      if (req.method === "POST" && transient) transportFailed = true;
      failures++;
      if (failures >= this.maxAttempts) throw error;
      const backoff = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (failures - 1));
      const jittered = backoff / 2 + this.random() * (backoff / 2);
      await wait(Math.max(jittered, (error.retryAfter ?? 0) * 1000), error);
      this.stats.retries++;
    }
  }

  /** One HTTP exchange; a failure without an answer becomes a synthetic UpstreamError. */
  private async attempt(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = this.timeoutImpl(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await this.fetchImpl(url, { ...init, signal: combined });
    } catch (err) {
      if (signal?.aborted) throw err;
      const timedOut = timeout.aborted;
      throw new UpstreamError({
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
  ): Promise<{ ok: true; value: T } | { ok: false; error: UpstreamError }> {
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
        error: new UpstreamError({
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
          error: new UpstreamError({
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
        error: new UpstreamError({
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
      error: new UpstreamError({
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
