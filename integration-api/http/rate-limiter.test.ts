import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter";

describe("fixed-window rate limiter", () => {
  it("counts down, refuses past the limit, and opens a new window after 60 s", () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(() => now);
    expect(limiter.take("k", "read", 3)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    now += 10_500;
    expect(limiter.take("k", "read", 3)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 50 });
    expect(limiter.take("k", "read", 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take("k", "read", 3)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 50 });
    now += 49_500;
    expect(limiter.take("k", "read", 3)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it("keeps buckets and keys apart", () => {
    const limiter = new RateLimiter(() => 0);
    limiter.take("k", "read", 1);
    expect(limiter.take("k", "read", 1).allowed).toBe(false);
    expect(limiter.take("k", "write", 1).allowed).toBe(true);
    expect(limiter.take("other", "read", 1).allowed).toBe(true);
  });

  it("never reports a reset below one second", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    limiter.take("k", "read", 1);
    now = 59_999;
    expect(limiter.peek("k", "read", 1).resetSeconds).toBe(1);
  });
});
