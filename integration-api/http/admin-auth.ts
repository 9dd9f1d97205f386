import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";
import type { AppEnv } from "./context";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Guards the organiser's admin surface with the configured admin token (constant-time compare). */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const match = /^Bearer (\S+)$/i.exec(c.req.header("authorization") ?? "");
  if (!match) throw new ApiError("missing_admin_token", "Send 'Authorization: Bearer <API_ADMIN_TOKEN>'.");
  if (!timingSafeEqual(digest(match[1]), digest(c.get("services").adminToken))) {
    throw new ApiError("invalid_admin_token", "The admin token is not valid.");
  }
  await next();
};
