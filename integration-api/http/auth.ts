import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { RateLimitBucket, Scope } from "../../lib/contract/resources";
import { ApiError } from "../errors";
import { hasScope, visibilityOf } from "../services/keys-service";
import type { AppEnv } from "./context";

/** The caller's address: the socket's, or the X-Forwarded-For entry the trusted proxies vouch for. */
export function clientIp(c: Context<AppEnv>): string {
  let socketIp = "";
  try {
    socketIp = getConnInfo(c).remote.address ?? "";
  } catch {
    // Not served by @hono/node-server (in-process test requests): no socket.
  }
  const hops = c.get("services").trustProxyHops;
  if (hops > 0) {
    const forwarded = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const entry = forwarded[forwarded.length - hops];
    if (entry) return entry;
  }
  return socketIp;
}

function setRateHeaders(
  c: Context<AppEnv>,
  state: { limit: number; remaining: number; resetSeconds: number },
) {
  c.header("x-ratelimit-limit", String(state.limit));
  c.header("x-ratelimit-remaining", String(state.remaining));
  c.header("x-ratelimit-reset", String(state.resetSeconds));
}

/**
 * Authenticates the key and applies, in the decided order, revocation, expiry, IP allow-list,
 * activation, the endpoint's scope (null: any usable key) and its rate-limit bucket.
 */
export function requireKey(scope: Scope | null, bucket: RateLimitBucket): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const services = c.get("services");
    const row = await services.keys.authenticate(c.req.header("authorization"), clientIp(c));
    if (scope && !hasScope(row.scopes, scope)) {
      // The key is authenticated: its answer carries the bucket's headers, without counting it.
      setRateHeaders(c, services.limiter.peek(row.id, bucket, row.rate_limits[bucket]));
      throw new ApiError("insufficient_scope", `This endpoint needs the scope ${scope}.`);
    }
    const state = services.limiter.take(row.id, bucket, row.rate_limits[bucket]);
    setRateHeaders(c, state);
    if (!state.allowed) {
      throw new ApiError(
        "rate_limit_exceeded",
        `Rate limit of ${state.limit} ${bucket} requests per minute exceeded.`,
        undefined,
        { "retry-after": String(state.resetSeconds) },
      );
    }
    c.set("apiKey", { row, visibility: visibilityOf(row) });
    await next();
  };
}
