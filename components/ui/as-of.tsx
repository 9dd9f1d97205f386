"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { ErrorBox } from "@/components/ui/states";
import type { LiveContext } from "@/lib/shared/api/live";
import { eventFormat } from "./event-format";

/** "Data as of HH:MM:SS" (the sales sync's last success, in the event zone) and the sync's health. */
export function AsOf({ ctx, fetching }: { ctx: LiveContext; fetching?: boolean }) {
  const { time } = eventFormat(ctx);
  const problems = [
    ...(ctx.sync.worker_stale ? ["the sync worker is not running"] : []),
    ...(ctx.sync.failing.length ? [`sync failing: ${ctx.sync.failing.join(", ")}`] : []),
    ...(ctx.sync.pending.length ? [`not mirrored yet: ${ctx.sync.pending.join(", ")}`] : []),
  ];
  return (
    <div
      className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600"
      aria-live="polite"
    >
      <span data-testid="as-of">
        {ctx.as_of ? `Data as of ${time(ctx.as_of)}` : "Not synced yet"}
        {ctx.event && <span className="ml-1">({ctx.event.time_zone})</span>}
      </span>
      {fetching && <span className="text-slate-600">refreshing…</span>}
      {problems.length > 0 && (
        <span role="status" className="rounded bg-amber-100 px-2 py-0.5 text-amber-950">
          {problems.join("; ")}
          {ctx.sync.last_error?.request_id && ` (request ${ctx.sync.last_error.request_id})`}
        </span>
      )}
    </div>
  );
}

/**
 * How fresh a report on screen is: "Data as of" and, when the last refresh failed, that error
 * above the figures still shown.
 */
export function ReportFreshness({ report, query }: { report: LiveContext; query: UseQueryResult<unknown> }) {
  return (
    <>
      <AsOf ctx={report} fetching={query.isFetching} />
      {query.isError && <ErrorBox error={query.error} what="the latest figures" />}
    </>
  );
}
