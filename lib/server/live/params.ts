import "server-only";
import { HttpError } from "../guard";

/** Query parameters of the live route handlers, validated (a bad one is 400 invalid_parameter). */
export function liveParams(request: Request) {
  const url = new URL(request.url);
  const dayId = url.searchParams.get("day_id") || null;
  const cursor = url.searchParams.get("cursor") || null;
  const direction = url.searchParams.get("direction") || null;
  if (dayId !== null && !/^[A-Za-z0-9_-]{1,100}$/.test(dayId))
    throw new HttpError(400, "invalid_parameter", "day_id is not a valid id.");
  if (cursor !== null && cursor.length > 300)
    throw new HttpError(400, "invalid_parameter", "Invalid cursor.");
  if (direction !== null && direction !== "topup" && direction !== "withdraw")
    throw new HttpError(400, "invalid_parameter", "direction must be topup or withdraw.");
  return { dayId, cursor, direction: direction as "topup" | "withdraw" | null };
}
