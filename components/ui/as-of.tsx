"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { ErrorBox } from "@/components/ui/states";
import type { DayFigures, LiveContext } from "@/lib/shared/api/sales";
import { AgeText, StaleMark, syncHealthOf, useFreshness } from "./data-age";
import { eventFormat } from "./event-format";
import { useIntlLocale } from "./locale-format";
import { FiguresMark, MirrorBanner } from "./mirror-status";
import { useResourceNames } from "./resource-names";

/**
 * "Data as of HH:MM:SS · 2 s ago" (the sales sync's last success, in the event zone, and its age
 * ticking), stale past 90 s with the reason (lib/shared/freshness.ts), and the sync's health.
 */
export function AsOf({
  ctx,
  fetching,
  refreshFailing,
}: {
  ctx: LiveContext;
  fetching?: boolean;
  refreshFailing?: boolean;
}) {
  const t = useTranslations("report");
  const resources = useResourceNames();
  const { time } = eventFormat(ctx, useIntlLocale());
  const state = useFreshness(ctx.as_of, syncHealthOf(ctx), refreshFailing);
  const problems = [
    ...(ctx.sync.worker_stale ? [t("workerStale")] : []),
    ...(ctx.sync.failing.length ? [t("failing", { resources: resources.list(ctx.sync.failing) })] : []),
    ...(ctx.sync.pending.length ? [t("pending", { resources: resources.list(ctx.sync.pending) })] : []),
  ];
  return (
    <div
      className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600"
      data-stale={state.stale}
    >
      <span className="inline-flex flex-wrap gap-x-1.5">
        <span data-testid="as-of">
          {ctx.as_of ? t("dataAsOf", { time: time(ctx.as_of) }) : t("notSynced")}
          {ctx.event && <span className="ml-1">({ctx.event.time_zone})</span>}
        </span>
        <AgeText state={state} />
      </span>
      <StaleMark state={state} />
      {fetching && <span className="text-slate-600">{t("refreshing")}</span>}
      {problems.length > 0 && (
        <span role="status" className="rounded bg-amber-100 px-2 py-0.5 text-amber-950">
          {problems.join("; ")}
          {ctx.sync.last_error?.request_id && t("request", { id: ctx.sync.last_error.request_id })}
        </span>
      )}
    </div>
  );
}

/**
 * How fresh a report on screen is: "Data as of", "updated N s ago", the first mirror's banner while a
 * day is incomplete, where the day's figures come from, and, when the last refresh failed, that error
 * above the figures still shown.
 */
export function ReportFreshness({
  report,
  query,
  figures,
  dayId,
}: {
  report: LiveContext;
  query: UseQueryResult<unknown>;
  figures?: DayFigures;
  dayId?: string | null;
}) {
  const t = useTranslations("report");
  return (
    <>
      <AsOf ctx={report} fetching={query.isFetching} refreshFailing={query.isError} />
      <MirrorBanner ctx={report} dayId={dayId} />
      {figures && <FiguresMark ctx={report} figures={figures} />}
      {query.isError && <ErrorBox error={query.error} what={t("latestFigures")} />}
    </>
  );
}
