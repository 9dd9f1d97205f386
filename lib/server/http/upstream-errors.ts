import "server-only";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { ErrorInfo } from "@/lib/shared/api/staff";
import { isUpstreamError, type UpstreamError } from "../upstream/client";

export { isUpstreamError };

/** Plain words for the upstream codes staff meet; anything else keeps the upstream's own message. */
const PLAIN: Record<string, string> = {
  ticket_not_found: "There is no ticket with this code.",
  wristband_not_found: "There is no wristband with this code.",
  ticket_already_used: "This ticket is already checked in (with another wristband), so it cannot be changed.",
  ticket_inactive: "This ticket is cancelled: it cannot be checked in or cancelled again.",
  ticket_code_taken: "A ticket with this code already exists.",
  wristband_already_linked: "This wristband already belongs to another ticket.",
  wristband_not_active: "This wristband is not active (blocked, lost, released or waiting for review).",
  wristband_not_in_review: "This wristband is no longer waiting for review: someone resolved it already.",
  insufficient_balance: "The paid balance is lower than this amount: only the paid balance can be withdrawn.",
  bonus_mismatch: "The bonus changed since it was quoted. Check the new quote and confirm again.",
  idempotency_key_in_use: "The same request is still being processed. Wait a moment and try again.",
  idempotency_key_reused:
    "This form was already used for a different request. Reload the form and start again.",
  rate_limit_exceeded: "The cashless service is busy (rate limit). Try again in a minute.",
  network_error: "The cashless service cannot be reached right now. Nothing is lost: try again.",
  timeout: "The cashless service did not answer in time. Try again: it will not be charged twice.",
  insufficient_scope: "The dashboard's API key is not allowed to do this. Ask the organiser.",
  key_pending_activation: "The dashboard's API key cannot write yet. Ask the organiser to activate it.",
};

/** Human text for an upstream error, with the field it is about when the upstream named one. */
export function plainWords(err: UpstreamError): string {
  const base = PLAIN[err.code] ?? err.message;
  return err.param && !PLAIN[err.code] ? `${base} (field ${err.param})` : base;
}

/**
 * An upstream failure as the console's error: same status (502 when there was no answer) and code.
 * A 429 says when to come back, in its message and in `retry-after`.
 */
export function toConsoleError(err: unknown): unknown {
  if (!isUpstreamError(err)) return err;
  const status = err.status >= 400 && err.status < 600 ? err.status : 502;
  const requestId = err.request_id ?? undefined;
  if (status === 429) {
    const retryAfter = Math.max(1, err.retryAfter ?? 1);
    return new ConsoleError(err.code, `The cashless service is busy: try again in ${retryAfter} s.`, {
      status,
      requestId,
      retryAfter,
    });
  }
  return new ConsoleError(err.code, plainWords(err), { status, requestId });
}

/** Runs an upstream call, turning its UpstreamError into a ConsoleError. */
export async function callUpstream<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toConsoleError(err);
  }
}

/** An upstream call whose 404 means "not there" (null) rather than an error. */
export async function findUpstream<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (err) {
    if (isUpstreamError(err) && err.status === 404) return null;
    throw toConsoleError(err);
  }
}

/** An upstream failure as data (shown on screens, kept with an import chunk): status 0 = no answer. */
export function upstreamErrorInfo(err: UpstreamError, requestId: string | null = null): ErrorInfo {
  return {
    status: err.status,
    code: err.code,
    message: plainWords(err),
    request_id: err.request_id ?? requestId,
  };
}
