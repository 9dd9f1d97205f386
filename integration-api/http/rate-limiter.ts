export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

const WINDOW_MS = 60_000;

/**
 * Fixed 60-second windows per key and bucket, held in this process's memory (as the spec says:
 * with several instances the effective quota can only be higher than nominal).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Counts one request if the window has room. */
  take(keyId: string, bucket: string, limit: number): RateLimitState {
    const window = this.current(keyId, bucket);
    const allowed = window.count < limit;
    if (allowed) window.count += 1;
    return this.state(window, limit, allowed);
  }

  /** The state without counting anything (headers on answers that never reached the bucket). */
  peek(keyId: string, bucket: string, limit: number): RateLimitState {
    const window = this.current(keyId, bucket);
    return this.state(window, limit, window.count < limit);
  }

  private current(keyId: string, bucket: string) {
    const now = this.clock();
    const id = `${keyId}:${bucket}`;
    let window = this.windows.get(id);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(id, window);
      if (this.windows.size > 50_000) this.sweep(now);
    }
    return window;
  }

  private state(window: { start: number; count: number }, limit: number, allowed: boolean): RateLimitState {
    const resetMs = window.start + WINDOW_MS - this.clock();
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }

  private sweep(now: number) {
    for (const [id, window] of this.windows) if (now - window.start >= WINDOW_MS) this.windows.delete(id);
  }
}
