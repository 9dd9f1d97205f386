"use client";

import { keepPreviousData, type UseQueryResult, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { z } from "zod";
import { useCursorPager } from "@/components/ui/cursor-pager";
import { ErrorBox, Loading } from "@/components/ui/states";
import { fetchJson } from "@/lib/shared/api/client";
import { LIVE_REFRESH_MS, STARTING_REFRESH_MS } from "@/lib/shared/refresh";

const isStarting = (data: unknown) =>
  (data as { mirror?: { state?: string } } | undefined)?.mirror?.state === "starting";

/**
 * A report of a route handler (`/api/live/sales`, `/api/reconciliation`…) with its query
 * parameters (null ones left out), keeping the figures shown while another day or page loads.
 * The query key is [path, query string]: invalidate [path] to refresh every day of it.
 */
export function useLiveReport<S extends z.ZodType>(
  path: string,
  schema: S,
  params: Record<string, string | null> = {},
) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const query = search.toString();
  return useQuery({
    queryKey: [path, query],
    queryFn: () => fetchJson(query ? `${path}?${query}` : path, schema),
    placeholderData: keepPreviousData,
    // A console connecting for the first time asks again every 2 s until the first summary is in.
    refetchInterval: (q) => (isStarting(q.state.data) ? STARTING_REFRESH_MS : LIVE_REFRESH_MS),
  });
}

/** A report that has nothing to show yet: loading, or the error that stopped the first load. */
export function ReportNotLoaded({ query, what }: { query: UseQueryResult<unknown>; what: string }) {
  return query.isPending ? <Loading what={what} /> : <ErrorBox error={query.error} what={what} />;
}

/** The chosen day of a report with a paged list: picking another day starts the list afresh. */
export function useDayWithPager() {
  const [dayId, setDayId] = useState<string | null>(null);
  const pager = useCursorPager();
  const pickDay = (id: string) => {
    setDayId(id);
    pager.reset();
  };
  return { dayId, pickDay, pager };
}
