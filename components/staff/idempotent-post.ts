"use client";

import { useCallback, useState } from "react";
import type { z } from "zod";
import { postJson } from "@/lib/shared/api/client";
import { isRetryable } from "@/lib/shared/api/errors";

/**
 * The Idempotency-Key of one form: created when the form opens, kept across retries (double
 * click, flaky network), renewed only once the upstream gave a final answer.
 */
export function useIdempotencyKey(): [string, () => void] {
  const [key, setKey] = useState(() => crypto.randomUUID());
  const renew = useCallback(() => setKey(crypto.randomUUID()), []);
  return [key, renew];
}

/**
 * One write of a form (check in, cancel, keep a wristband): posts with the form's Idempotency-Key,
 * renews the key after a final answer (a success or a refusal, not a lost answer), and keeps
 * whether it is in flight and the error of the last try. `send` resolves to the answer, or to null
 * when it failed (the error is then in `error`).
 */
export function useIdempotentPost<S extends z.ZodType>(schema: S) {
  const [key, renewKey] = useIdempotencyKey();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function send(url: string, body: Record<string, unknown> = {}): Promise<z.output<S> | null> {
    setBusy(true);
    setError(null);
    try {
      const answer = await postJson(url, { ...body, idempotency_key: key }, schema);
      renewKey();
      return answer;
    } catch (err) {
      if (!isRetryable(err)) renewKey();
      setError(err);
      return null;
    } finally {
      setBusy(false);
    }
  }
  return { send, busy, error, renewKey };
}
