"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { SeverityBadge } from "@/components/alerts";
import { StateBadge } from "@/components/terminals";
import { chartColors, SeriesChart } from "@/components/ui/chart-frame";
import { joinClasses, textLinkClass } from "@/components/ui/class-names";
import { AgeText, StaleMark, syncHealthOf, useFreshness } from "@/components/ui/data-age";
import { eventFormat } from "@/components/ui/event-format";
import { ReportNotLoaded, useLiveReport } from "@/components/ui/live-report";
import { useIntlLocale } from "@/components/ui/locale-format";
import { ErrorBox } from "@/components/ui/states";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { RightNowReport } from "@/lib/shared/api/right-now";
import { formatCount } from "@/lib/shared/format/number";
import { hourLabel } from "@/lib/shared/format/time";

/**
 * Right now (issue 27): the last 15 minutes at a glance, first on the overview and on the wall.
 * `size="wall"` is the TV layout (large figures, readable from three metres); `links` off where the
 * reader may not open the terminals and alerts screens. Stale figures turn the panel red and say why.
 */

export type RightNowSize = "normal" | "wall";

const look = {
  normal: {
    figure: "text-2xl font-semibold tabular-nums",
    label: "text-xs font-medium uppercase tracking-wide text-slate-600",
    body: "text-sm",
    title: "text-lg font-semibold",
    chart: 120,
    // Two columns on a phone too: the short tiles (entries, top-ups, terminals, alerts) side by side.
    grid: "grid grid-cols-2 gap-3 xl:grid-cols-3",
  },
  wall: {
    figure: "text-5xl font-bold tabular-nums",
    label: "text-xl font-medium uppercase tracking-wide text-slate-600",
    body: "text-2xl",
    title: "text-3xl font-bold",
    chart: 220,
    grid: "grid gap-5 grid-cols-3",
  },
} as const;

/** Terminals named in the panel; the rest are counted ("and 6 more"). */
const TERMINALS_SHOWN: Record<RightNowSize, number> = { normal: 5, wall: 4 };

export function RightNowPanel({ size = "normal", links = true }: { size?: RightNowSize; links?: boolean }) {
  const t = useTranslations("rightNow");
  const query = useLiveReport(endpoints.live.rightNow);
  if (!query.data) return <ReportNotLoaded query={query} what={t("loading")} />;
  return (
    <RightNowFigures
      report={query.data}
      size={size}
      links={links}
      refreshFailing={query.isError}
      error={query.isError ? <ErrorBox error={query.error} what={t("loading")} /> : null}
    />
  );
}

/** The panel from an answer already fetched (the wall may hold its own query). */
export function RightNowFigures({
  report,
  size = "normal",
  links = true,
  refreshFailing = false,
  error = null,
}: {
  report: RightNowReport;
  size?: RightNowSize;
  links?: boolean;
  refreshFailing?: boolean;
  error?: ReactNode;
}) {
  const t = useTranslations("rightNow");
  const tf = useTranslations("freshness");
  const locale = useIntlLocale();
  const { money, time, timeZone } = eventFormat(report, locale);
  const state = useFreshness(report.as_of, syncHealthOf(report), refreshFailing);
  const l = look[size];
  const count = (n: number) => formatCount(n, locale);
  return (
    <section
      aria-labelledby="right-now-heading"
      data-testid="right-now"
      data-stale={state.stale}
      data-size={size}
      className={joinClasses(
        "rounded border bg-white p-4",
        state.stale ? "border-2 border-red-700" : "border-slate-200",
      )}
    >
      <div className="mb-3 flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h2 id="right-now-heading" className={l.title}>
          {t("title")}
        </h2>
        <span className={joinClasses("text-slate-600", l.body)}>
          {t("window", { from: time(report.window.from).slice(0, 5), to: time(report.window.to), timeZone })}
        </span>
        <span className={joinClasses("flex flex-wrap items-center gap-x-1.5 gap-y-1 text-slate-700", l.body)}>
          <span data-testid="right-now-as-of">
            {report.as_of ? tf("asOf", { time: time(report.as_of) }) : tf("notSynced")}
          </span>
          <AgeText state={state} />
          <span className="ml-2">
            <StaleMark state={state} />
          </span>
        </span>
      </div>
      {error}
      <div className={l.grid}>
        <Tile label={t("sales")} size={size} testId="rn-sales" wide>
          <p className={l.figure} data-testid="rn-sales-total">
            {money(report.sales.total)}
          </p>
          <p className={l.body}>{t("salesCount", { count: report.sales.count })}</p>
          <p className={joinClasses("text-slate-700", l.body)} data-testid="rn-sales-previous">
            <Comparison report={report} money={money} />
          </p>
          <PerMinuteChart report={report} money={money} height={l.chart} />
        </Tile>

        <Tile label={t("entries")} size={size} testId="rn-entries">
          <p className={l.figure} data-testid="rn-entries-allowed">
            {count(report.entries.allowed)}
          </p>
          <p className={l.body}>{t("denied", { count: report.entries.denied })}</p>
          {report.entries.by_zone.length === 0 ? (
            <p className={joinClasses("text-slate-600", l.body)}>{t("noEntries")}</p>
          ) : (
            <ul className={joinClasses("mt-1 space-y-0.5", l.body)} aria-label={t("byZone")}>
              {report.entries.by_zone.slice(0, 5).map((z) => (
                <li key={z.zone_id} className="flex justify-between gap-2">
                  <span className="[overflow-wrap:anywhere]">{z.name || t("noZone")}</span>
                  <span className="tabular-nums">{count(z.allowed)}</span>
                </li>
              ))}
            </ul>
          )}
        </Tile>

        <Tile label={t("topups")} size={size} testId="rn-topups">
          <dl className="space-y-1">
            <div>
              <dt className={l.body}>{t("paid")}</dt>
              <dd className={l.figure} data-testid="rn-topups-paid">
                {money(report.topups.paid.amount)}
              </dd>
              <dd className={joinClasses("text-slate-600", l.body)}>
                {t("topupsCount", { count: report.topups.paid.count })}
              </dd>
            </div>
            <div>
              <dt className={l.body}>{t("promo")}</dt>
              <dd className={joinClasses("font-semibold tabular-nums", l.body)} data-testid="rn-topups-promo">
                {money(report.topups.promo.amount)}
              </dd>
            </div>
            <div>
              <dt className={l.body}>{t("withdrawals")}</dt>
              <dd className={joinClasses("tabular-nums", l.body)} data-testid="rn-withdrawals">
                {money(report.topups.withdrawals.amount)}
              </dd>
            </div>
          </dl>
        </Tile>

        <Tile label={t("terminalsNotLive")} size={size} testId="rn-terminals">
          <p className={l.figure} data-testid="rn-terminals-count">
            {count(report.terminals.not_live)}
          </p>
          {report.terminals.idle > 0 && (
            <p className={joinClasses("text-slate-600", l.body)}>
              {t("idle", { count: report.terminals.idle })}
            </p>
          )}
          {report.terminals.items.length === 0 ? (
            <p className={l.body}>{t("allLive")}</p>
          ) : (
            <ul className={joinClasses("mt-1 space-y-1", l.body)}>
              {report.terminals.items.slice(0, TERMINALS_SHOWN[size]).map((x) => (
                <li key={x.device_id} className="flex flex-wrap items-center gap-2">
                  <span className="font-medium [overflow-wrap:anywhere]">{x.device_id}</span>
                  <StateBadge state={x.state} />
                </li>
              ))}
              {report.terminals.items.length > TERMINALS_SHOWN[size] && (
                <li className="text-slate-600">
                  {t("more", { count: report.terminals.items.length - TERMINALS_SHOWN[size] })}
                </li>
              )}
            </ul>
          )}
          {links && (
            <Link href="/terminals" className={joinClasses(textLinkClass, l.body)}>
              {t("seeTerminals")}
            </Link>
          )}
        </Tile>

        <Tile label={t("openAlerts")} size={size} testId="rn-alerts">
          <p className={l.figure} data-testid="rn-alerts-count">
            {count(report.alerts.open)}
          </p>
          {report.alerts.top.length === 0 ? (
            <p className={l.body}>{t("noAlerts")}</p>
          ) : (
            <AlertList report={report} className={l.body} />
          )}
          {links && (
            <Link href="/alerts" className={joinClasses(textLinkClass, l.body)}>
              {t("seeAlerts")}
            </Link>
          )}
        </Tile>

        <Tile label={t("topProducts")} size={size} testId="rn-products" wide>
          {report.top_products.length === 0 ? (
            <p className={l.body}>{t("noProducts")}</p>
          ) : (
            <ol className={joinClasses("space-y-0.5", l.body)}>
              {report.top_products.map((p) => (
                <li key={p.product_id} className="flex justify-between gap-2">
                  <span className="[overflow-wrap:anywhere]">
                    {p.name} <span className="text-slate-600">×{count(p.quantity)}</span>
                  </span>
                  <span className="tabular-nums">{money(p.total)}</span>
                </li>
              ))}
            </ol>
          )}
        </Tile>
      </div>
    </section>
  );
}

/** One figure of the panel; a `wide` one takes the whole row below the three-column width. */
function Tile({
  label,
  size,
  testId,
  wide = false,
  children,
}: {
  label: string;
  size: RightNowSize;
  testId: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      className={joinClasses(
        "min-w-0 rounded border border-slate-200 p-3",
        wide && size === "normal" && "col-span-2 xl:col-span-1",
      )}
      data-testid={testId}
    >
      <h3 className={look[size].label}>{label}</h3>
      <div className="mt-1">{children}</div>
    </div>
  );
}

/** "+12 % against Day 1 at this time (€ 1,234.00)", or why there is nothing to compare with. */
function Comparison({ report, money }: { report: RightNowReport; money: (n: number) => string }) {
  const t = useTranslations("rightNow");
  const previous = report.sales.previous;
  if (!report.previous_day) return <>{t("firstDay")}</>;
  const day = report.previous_day.name;
  if (!previous) return <>{t("previousMirroring", { day })}</>;
  if (previous.total === 0) return <>{t("previousNone", { day })}</>;
  const pct = Math.round(((report.sales.total - previous.total) / previous.total) * 100);
  return <>{t("vsPrevious", { pct, day, amount: money(previous.total) })}</>;
}

function PerMinuteChart({
  report,
  money,
  height,
}: {
  report: RightNowReport;
  money: (n: number) => string;
  height: number;
}) {
  const t = useTranslations("rightNow");
  const tz = report.event?.time_zone ?? "UTC";
  const data = report.sales.per_minute.map((m) => ({
    label: hourLabel(m.minute, tz),
    now: m.total,
    previous: m.previous_total,
  }));
  return (
    <SeriesChart
      label={t("perMinuteChart")}
      data={data}
      format={money}
      hourly
      height={height}
      series={[
        { key: "now", name: t("perMinute"), color: chartColors.current },
        ...(report.previous_day
          ? [
              {
                key: "previous",
                name: t("previousSeries", { day: report.previous_day.name }),
                color: chartColors.previous,
                line: true,
              },
            ]
          : []),
      ]}
    />
  );
}

function AlertList({ report, className }: { report: RightNowReport; className: string }) {
  const t = useTranslations("alerts.kind");
  return (
    <ul className={joinClasses("mt-1 space-y-1", className)}>
      {report.alerts.top.map((a) => (
        <li key={a.id} className="flex flex-wrap items-center gap-2">
          <SeverityBadge severity={a.severity} />
          <span className="[overflow-wrap:anywhere]">
            {t(a.kind)}
            {/* A terminal's alert names it; the others' titles say what they are about. */}
            {a.kind.startsWith("terminal_") && <span className="text-slate-600"> · {a.subject}</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
