"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import type { DayFigures, LiveContext, MirrorProgress } from "@/lib/shared/api/sales";
import { formatCount } from "@/lib/shared/format/number";
import { eventFormat } from "./event-format";
import { useIntlLocale } from "./locale-format";

/**
 * What the first mirror is doing, said where people look (issue 12): a slim banner on the live
 * screens while a day is incomplete, a mark on figures taken from the upstream's summary, and how
 * long ago the screen was refreshed.
 */

/** "about 3 min left" from an estimate in seconds. */
export function useEtaText() {
  const t = useTranslations("mirror");
  return (seconds: number | null) => {
    if (seconds === null) return null;
    if (seconds < 90) return t("etaSeconds", { seconds: Math.max(1, Math.round(seconds)) });
    if (seconds < 90 * 60) return t("etaMinutes", { minutes: Math.round(seconds / 60) });
    return t("etaHours", { hours: Math.floor(seconds / 3600), minutes: Math.round((seconds % 3600) / 60) });
  };
}

/** A day's records mirrored of those its summary counts, as a share (null: no summary yet). */
export function dayShare(day: MirrorProgress["days"][number] | undefined): number | null {
  if (!day || day.expected === null) return null;
  if (day.walked) return 1;
  return day.expected === 0 ? 0 : Math.min(0.99, day.records / day.expected);
}

export function ProgressBar({ share, label }: { share: number; label: string }) {
  const percent = Math.round(share * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-1.5 w-full overflow-hidden rounded bg-slate-200"
    >
      <div className="h-full bg-sky-700 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}

/** The banner of the live screens while the day shown (or any day) is still being mirrored. */
export function MirrorBanner({ ctx, dayId }: { ctx: LiveContext; dayId?: string | null }) {
  const t = useTranslations("mirror");
  const locale = useIntlLocale();
  const eta = useEtaText();
  const { time } = eventFormat(ctx, locale);
  const m = ctx.mirror;
  const day = m.days.find((d) => d.day_id === (dayId ?? m.walking?.day_id));
  // Only while the day on screen is incomplete: older days filling in change nothing shown here.
  if (m.state !== "starting" && (!day || day.walked)) return null;
  const dayName = day?.name ?? "";
  const share = dayShare(day);
  const line =
    m.state === "starting" || !day
      ? t("starting")
      : t("mirroringDay", {
          day: dayName,
          records: formatCount(day.records, locale),
          expected: day.expected === null ? "…" : formatCount(day.expected, locale),
        });
  return (
    <div
      role="status"
      data-testid="mirror-banner"
      className="mb-4 space-y-1 rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950"
    >
      <p>
        {line}
        {m.eta_seconds !== null && <span className="ml-2">{eta(m.eta_seconds)}</span>}
        {m.paused_until && <span className="ml-2">{t("pausedQuota", { time: time(m.paused_until) })}</span>}
      </p>
      {share !== null && day && !day.walked && (
        <ProgressBar share={share} label={t("progressLabel", { day: dayName })} />
      )}
    </div>
  );
}

/** Where the day's totals come from: the upstream's summary (marked) or the mirrored records. */
export function FiguresMark({ ctx, figures }: { ctx: LiveContext; figures: DayFigures }) {
  const t = useTranslations("mirror");
  const { time } = eventFormat(ctx, useIntlLocale());
  const summary = figures.source === "summary";
  return (
    <p
      data-testid="figures-source"
      data-source={figures.source}
      className={
        summary
          ? "inline-block rounded bg-amber-100 px-2 py-0.5 text-sm text-amber-950"
          : "text-xs text-slate-500"
      }
      title={summary ? t("fromSummaryHint") : undefined}
    >
      {summary
        ? figures.summary_at
          ? t("fromSummaryAt", { time: time(figures.summary_at) })
          : t("fromSummary")
        : t("fromMirror")}
    </p>
  );
}

/** "updated 12 s ago", ticking every second from the last successful refresh. */
export function UpdatedAgo({ at }: { at: number }) {
  const t = useTranslations("mirror");
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!at) return null;
  return (
    <span data-testid="updated-ago">
      {t("updatedAgo", { seconds: Math.max(0, Math.round((now - at) / 1000)) })}
    </span>
  );
}

/** In a panel built from records: how far the day's records are mirrored, while they are not all. */
export function RecordsNote({ ctx, dayId }: { ctx: LiveContext; dayId: string }) {
  const t = useTranslations("mirror");
  const day = ctx.mirror.days.find((d) => d.day_id === dayId);
  const share = dayShare(day);
  if (!day || day.walked || share === null) return null;
  return (
    <p data-testid="records-note" className="mb-2 text-xs text-sky-900">
      {t("panelPartial", { percent: Math.floor(share * 100) })}
    </p>
  );
}
