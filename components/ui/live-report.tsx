"use client";

import { keepPreviousData, type UseQueryResult } from "@tanstack/react-query";
import { useState } from "react";
import { useCursorPager } from "@/components/ui/cursor-pager";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import type { CallInput, EndpointSpec } from "@/lib/shared/api/endpoints";

/**
 * A live report (`endpoints.live.sales`, `endpoints.night.report`…) with its query parameters
 * (null ones left out), keeping the figures shown while another day or page loads. Its refresh
 * is the declaration's (`live`: every 30 s, every 2 s while a console's first summary is coming).
 */
export function useLiveReport<E extends EndpointSpec>(
  endpoint: E,
  query: Record<string, string | null | undefined> = {},
) {
  return useEndpoint(endpoint, { query } as CallInput<E>, { placeholderData: keepPreviousData });
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
