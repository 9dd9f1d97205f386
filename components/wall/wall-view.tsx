"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { chartColors, hourTickLabels, SeriesChart } from "@/components/ui/chart-frame";
import { eventFormat } from "@/components/ui/event-format";
import { useLiveReport } from "@/components/ui/live-report";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { useStreamStatus } from "@/components/ui/stream-status";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { OverviewReport } from "@/lib/shared/api/sales";
import type { WallAttention } from "@/lib/shared/api/wall";
import { formatCount } from "@/lib/shared/format/number";
import { useWallClock } from "./use-wall-clock";

/** Rows each list of the wall shows; the rest is counted ("+ 3 more"). */
const TERMINAL_ROWS = 6;
const ALERT_ROWS = 4;

/**
 * The wall (a TV at 1920×1080 or 3840×2160, read from three metres): today's figures, the hourly
 * chart with the forecast, the terminals that need attention and the open alerts, on one dark
 * screen with no navigation and no scrolling (every size is in rem, and the wall's rem grows with
 * the screen's height: globals.css). When the console cannot be reached it says "reconnecting" and
 * keeps the last figures with their age (React Query keeps the data of a failed refetch).
 */
export function WallView() {
  const t = useTranslations("wall");
  const locale = useIntlLocale();
  const overview = useLiveReport(endpoints.live.overview);
  const attention = useEndpoint(endpoints.wall.attention, {});
  // The wall's poll: keeps its session (renewed once a day) and says it is on screen.
  const heartbeat = useEndpoint(endpoints.wall.session, {});
  const stream = useStreamStatus();
  const { now, online, height } = useWallClock();

  const signedOut = [overview.error, attention.error, heartbeat.error].some(
    (e) => (e as { status?: number } | null)?.status === 401,
  );
  const reconnecting =
    !online || stream.state === "reconnecting" || overview.isError || attention.isError || heartbeat.isError;
  const data = overview.data;
  const format = data ? eventFormat(data, locale) : null;
  // The event's time of day; before the first figures, the TV's own.
  const time = (at: string) => (format ? format.time(at) : new Date(at).toLocaleTimeString(locale));
  const updatedAt = overview.dataUpdatedAt || null;
  const age = updatedAt === null ? null : Math.max(0, Math.round((now - updatedAt) / 1000));

  return (
    <div
      data-wall
      className="dark flex h-screen flex-col gap-4 overflow-hidden bg-slate-50 p-6 text-slate-900"
    >
      <header className="flex items-baseline justify-between gap-6">
        <h1 className="truncate text-3xl font-semibold">
          {data?.day ? t("title", { day: data.day.name }) : t("titleNoDay")}
        </h1>
        <div className="flex items-baseline gap-6">
          <StatusPill reconnecting={reconnecting} signedOut={signedOut} />
          <p className="text-3xl font-semibold tabular-nums" data-testid="wall-clock">
            {time(new Date(now).toISOString())}
          </p>
        </div>
      </header>

      {signedOut ? (
        <p role="alert" className="rounded-xl bg-red-50 p-6 text-3xl text-red-900">
          {t("signedOut")}
        </p>
      ) : !data || !format ? (
        <p className="text-3xl text-slate-600">{overview.isError ? t("unreachable") : t("loading")}</p>
      ) : (
        <WallFigures data={data} money={format.money} fontSize={Math.round(height / 60)}>
          <AttentionColumn attention={attention.data} />
        </WallFigures>
      )}

      <footer className="flex justify-between text-xl text-slate-600" aria-live="polite">
        <p data-testid="wall-age">
          {updatedAt === null || age === null
            ? t("noFigures")
            : t("asOf", { time: time(new Date(updatedAt).toISOString()), age: ageText(t, age) })}
        </p>
        {data?.as_of && <p>{t("mirrorAsOf", { time: time(data.as_of) })}</p>}
      </footer>
    </div>
  );
}

type Translate = ReturnType<typeof useTranslations<"wall">>;

function ageText(t: Translate, seconds: number): string {
  if (seconds < 120) return t("ageSeconds", { n: seconds });
  if (seconds < 7200) return t("ageMinutes", { n: Math.floor(seconds / 60) });
  return t("ageHours", { n: Math.floor(seconds / 3600) });
}

function StatusPill({ reconnecting, signedOut }: { reconnecting: boolean; signedOut: boolean }) {
  const t = useTranslations("wall");
  if (signedOut) return null;
  return reconnecting ? (
    <p
      role="status"
      data-testid="wall-status"
      className="rounded-full bg-amber-100 px-4 py-1 text-2xl font-semibold text-amber-950"
    >
      {t("reconnecting")}
    </p>
  ) : (
    <p
      role="status"
      data-testid="wall-status"
      className="rounded-full bg-green-100 px-4 py-1 text-2xl font-semibold text-green-950"
    >
      {t("live")}
    </p>
  );
}

function WallFigures({
  data,
  money,
  fontSize,
  children,
}: {
  data: OverviewReport;
  money: (minor: number) => string;
  fontSize: number;
  children: ReactNode;
}) {
  const t = useTranslations("wall");
  const locale = useIntlLocale();
  const timeZone = data.event?.time_zone ?? "UTC";
  const labels = hourTickLabels(data.hours, timeZone);
  const hourly = data.hours.map((h, i) => ({
    label: labels[i],
    today: h.total,
    previous: h.previous_total,
    forecast: h.forecast_total,
  }));
  const f = data.forecast;
  return (
    <>
      <dl className="grid grid-cols-5 gap-4">
        <Figure label={t("sales")} value={money(data.totals.total)} testId="wall-sales" />
        <Figure label={t("salesCount")} value={formatCount(data.totals.count, locale)} testId="wall-count" />
        <Figure label={t("averageBasket")} value={money(data.totals.average_basket)} />
        {/* Paid top-ups only: promo credit is money nobody paid, never added to them. */}
        <Figure label={t("topups")} value={money(data.flows.topups.amount)} testId="wall-topups" />
        <Figure
          label={t("forecast")}
          value={f?.projected_total == null ? "—" : money(f.projected_total)}
          testId="wall-forecast"
        />
      </dl>
      <div className="grid min-h-0 flex-1 grid-cols-3 gap-4">
        <Panel id="wall-hourly" title={t("hourly")} className="col-span-2 flex min-h-0 flex-col text-2xl">
          <div className="min-h-0 flex-1">
            <SeriesChart
              label={t("hourlyChart")}
              data={hourly}
              format={money}
              hourly
              legend
              height="100%"
              fontSize={fontSize}
              animate={false}
              series={[
                { key: "today", name: data.day?.name ?? t("today"), color: chartColors.current },
                ...(data.previous_day
                  ? [
                      {
                        key: "previous",
                        name: data.previous_day.name,
                        color: chartColors.previous,
                        line: true,
                      },
                    ]
                  : []),
                ...(f?.projected_total != null
                  ? [
                      {
                        key: "forecast",
                        name: t("forecastLine"),
                        color: chartColors.forecast,
                        line: true,
                        dashed: true,
                      },
                    ]
                  : []),
              ]}
            />
          </div>
        </Panel>
        {children}
      </div>
    </>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-5 py-3">
      <dt className="truncate text-xl font-medium text-slate-600">{label}</dt>
      <dd className="truncate text-5xl font-bold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function AttentionColumn({ attention }: { attention: WallAttention | undefined }) {
  const t = useTranslations("wall");
  const kinds = useTranslations("alerts.kind");
  const severities = useTranslations("alerts.severity");
  const states = useTranslations("wall.state");
  return (
    <div className="flex min-h-0 flex-col gap-4">
      <Panel
        id="wall-terminals"
        title={
          attention
            ? t("terminals", { count: attention.terminals.length, total: attention.terminals_total })
            : t("terminalsLoading")
        }
        className="min-h-0 flex-1 overflow-hidden text-2xl"
      >
        {attention && attention.terminals.length === 0 && <p className="text-slate-600">{t("allLive")}</p>}
        <ul className="space-y-1" data-testid="wall-terminals">
          {attention?.terminals.slice(0, TERMINAL_ROWS).map((d) => (
            <li key={d.device_id} className="flex justify-between gap-4">
              <bdi translate="no" className="truncate font-medium">
                {d.device_id}
              </bdi>
              <span className="shrink-0 text-amber-800">{states(d.state)}</span>
            </li>
          ))}
        </ul>
        {attention && attention.terminals.length > TERMINAL_ROWS && (
          <p className="text-slate-600">{t("more", { count: attention.terminals.length - TERMINAL_ROWS })}</p>
        )}
      </Panel>
      <Panel
        id="wall-alerts"
        title={attention ? t("alerts", { count: attention.open_alerts }) : t("alertsLoading")}
        className="min-h-0 flex-1 overflow-hidden text-2xl"
      >
        {attention && attention.alerts.length === 0 && <p className="text-slate-600">{t("noAlerts")}</p>}
        <ul className="space-y-1" data-testid="wall-alerts">
          {attention?.alerts.slice(0, ALERT_ROWS).map((a) => (
            <li key={a.id} className="flex justify-between gap-4">
              <span className="truncate">
                {kinds(a.kind)}
                {a.subject !== "*" && (
                  <>
                    {" · "}
                    <bdi translate="no">{a.subject}</bdi>
                  </>
                )}
              </span>
              <span className={`shrink-0 ${a.severity === "critical" ? "text-red-800" : "text-amber-800"}`}>
                {severities(a.severity)}
              </span>
            </li>
          ))}
        </ul>
        {attention && attention.alerts.length > ALERT_ROWS && (
          <p className="text-slate-600">{t("more", { count: attention.alerts.length - ALERT_ROWS })}</p>
        )}
      </Panel>
    </div>
  );
}
