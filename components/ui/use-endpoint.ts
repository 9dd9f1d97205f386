"use client";

import { type QueryKey, type UseQueryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { call, urlOf } from "@/lib/shared/api/call";
import type { AnswerOf, CallInput, EndpointSpec } from "@/lib/shared/api/endpoints";
import { isRetryable } from "@/lib/shared/api/errors";
import { LIVE_REFRESH_MS, STARTING_REFRESH_MS } from "@/lib/shared/refresh";

/**
 * React Query on the endpoint declarations: a read's cache key and refresh come from its
 * declaration, and every write goes through `useWrite`.
 */

/**
 * The cache key of an endpoint's read: its name, then its URL. Invalidating `keyOf(endpoint)`
 * refreshes every read of it (every day, page and code).
 */
export function keyOf<E extends EndpointSpec>(endpoint: E, input?: Omit<CallInput<E>, "body">): QueryKey {
  return input === undefined ? [endpoint.name] : [endpoint.name, urlOf(endpoint, input)];
}

const isStarting = (data: unknown) =>
  (data as { mirror?: { state?: string } } | undefined)?.mirror?.state === "starting";

/** How a read refreshes, from its declaration. */
export function refreshOptions(refresh: EndpointSpec["refresh"]) {
  if (refresh === "live")
    return {
      // A console connecting for the first time asks again every 2 s until the first summary is in.
      refetchInterval: (q: { state: { data: unknown } }) =>
        isStarting(q.state.data) ? STARTING_REFRESH_MS : LIVE_REFRESH_MS,
      refetchOnWindowFocus: true,
    };
  // A lookup spends the upstream's budget: it is asked again only when someone asks again.
  return { refetchInterval: false as const, refetchOnWindowFocus: false };
}

export type EndpointQueryOptions<E extends EndpointSpec> = Omit<
  UseQueryOptions<AnswerOf<E>, Error, AnswerOf<E>, QueryKey>,
  "queryKey" | "queryFn"
>;

/** Reads an endpoint; `options` may narrow it (enabled, placeholderData, another interval). */
export function useEndpoint<E extends EndpointSpec>(
  endpoint: E,
  input: CallInput<E>,
  options: EndpointQueryOptions<E> = {},
) {
  return useQuery<AnswerOf<E>, Error, AnswerOf<E>, QueryKey>({
    queryKey: keyOf(endpoint, input),
    queryFn: () => call(endpoint, input),
    ...(refreshOptions(endpoint.refresh) as object),
    ...options,
  });
}

/**
 * The Idempotency-Key of one form: created when the form opens, kept across retries (double
 * click, flaky network), renewed only once the upstream gave a final answer.
 */
export function useIdempotencyKey(): [string, () => void] {
  const [key, setKey] = useState(() => crypto.randomUUID());
  const renew = useCallback(() => setKey(crypto.randomUUID()), []);
  return [key, renew];
}

/** What a write sends; an idempotent one's body has no key (useWrite adds the form's). */
export type WriteInput<E extends EndpointSpec, Idempotent extends boolean> = Idempotent extends true
  ? Omit<CallInput<E>, "body"> &
      (CallInput<E> extends { body: infer B } ? { body?: Omit<B, "idempotency_key"> } : { body?: undefined })
  : CallInput<E>;

export interface WriteOptions<E extends EndpointSpec, Idempotent extends boolean> {
  /**
   * Send the form's Idempotency-Key in the body: kept when a try may not have reached the upstream
   * (a lost answer, a 5xx), renewed after a final answer (a success or a refusal).
   */
  idempotent?: Idempotent;
  onSuccess?: (answer: AnswerOf<E>, input: WriteInput<E, Idempotent>) => unknown;
  onError?: (error: Error, input: WriteInput<E, Idempotent>) => unknown;
}

/**
 * The one way to write: a mutation of the endpoint. `send` resolves to the answer, or to null
 * when the write failed (its error is then in `error`), for forms that only branch on success.
 */
export function useWrite<E extends EndpointSpec, Idempotent extends boolean = false>(
  endpoint: E,
  options: WriteOptions<E, Idempotent> = {},
) {
  const [key, renewKey] = useIdempotencyKey();
  const mutation = useMutation<AnswerOf<E>, Error, WriteInput<E, Idempotent>>({
    mutationFn: (input) => {
      const withKey = options.idempotent
        ? { ...input, body: { ...(input.body as object | undefined), idempotency_key: key } }
        : input;
      return call(endpoint, withKey as CallInput<E>);
    },
    onSuccess: (answer, input) => {
      if (options.idempotent) renewKey();
      return options.onSuccess?.(answer, input);
    },
    onError: (error, input) => {
      if (options.idempotent && !isRetryable(error)) renewKey();
      return options.onError?.(error, input);
    },
  });
  const send = (input: WriteInput<E, Idempotent>): Promise<AnswerOf<E> | null> =>
    mutation.mutateAsync(input).catch(() => null);
  return { ...mutation, send, busy: mutation.isPending, renewKey };
}
