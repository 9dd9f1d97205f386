"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { type ReactNode, useId } from "react";
import { downloadLinkClass, joinClasses } from "@/components/ui/class-names";
import type { DayFigures, LiveContext, LiveDay } from "@/lib/shared/api/sales";
import { ReportFreshness } from "./as-of";

export function DayPicker({
  days,
  value,
  onChange,
}: {
  days: LiveDay[];
  value: string | null;
  onChange: (dayId: string) => void;
}) {
  // A label beside the select (not around it): its text is "Event day" alone, not the chosen day too.
  const t = useTranslations("report");
  const id = useId();
  return (
    <div className="mb-4 flex items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium">
        {t("eventDay")}
      </label>
      <select
        id={id}
        className="rounded border border-slate-300 bg-white px-2 py-1 max-md:min-h-11"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value)}
      >
        {days.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name} ({d.date})
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The top of a day's report: how fresh it is, then the day picker, the day's CSV download and any
 * other tool of the report (`toolsClassName`: e.g. `no-print`).
 */
export function DayReportHeader({
  report,
  day,
  query,
  onPick,
  exportHref,
  exportLabel,
  toolsClassName,
  figures,
  children,
}: {
  report: LiveContext;
  /** Where the day's totals come from (reports whose figures can come from the summary). */
  figures?: DayFigures;
  day: LiveDay;
  query: UseQueryResult<unknown>;
  onPick: (dayId: string) => void;
  exportHref?: string;
  exportLabel?: string;
  toolsClassName?: string;
  children?: ReactNode;
}) {
  const t = useTranslations("report");
  return (
    <>
      <ReportFreshness report={report} query={query} figures={figures} dayId={day.id} />
      <div className={joinClasses("flex flex-wrap items-center gap-4", toolsClassName)}>
        <DayPicker days={report.days} value={day.id} onChange={onPick} />
        {exportHref && (
          <a href={exportHref} download className={joinClasses(downloadLinkClass, "mb-4")}>
            {exportLabel ?? t("exportDay")}
          </a>
        )}
        {children}
      </div>
    </>
  );
}
