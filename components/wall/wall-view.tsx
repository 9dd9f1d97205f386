"use client";

import { useTranslations } from "next-intl";
import { RightNowFigures } from "@/components/sales";
import { chartColors, hourTickLabels, SeriesChart } from "@/components/ui/chart-frame";
import { useConsoleClockOffset } from "@/components/ui/console-clock";
import { useAgeText } from "@/components/ui/data-age";
import { eventFormat } from "@/components/ui/event-format";
import { useLiveReport } from "@/components/ui/live-report";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { useStreamStatus } from "@/components/ui/stream-status";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { OverviewReport } from "@/lib/shared/api/sales";
import { FitToBox } from "./fit-to-box";
import { useWallClock } from "./use-wall-clock";

/**
 * The wall (a TV at 1920×1080 or 3840×2160, read from three metres): right now (the last 15
 * minutes, the terminals not live, the most severe open alerts), today's sales with the forecast at
 * close, and the hourly chart with the forecast line, on one dark screen with no navigation and
 * nothing to scroll (every size is in rem, and the wall's rem grows with the screen's height:
 * globals.css). When the console cannot be reached it says "reconnecting" and keeps the last
 * figures with their age (React Query keeps the data of a failed refetch).
 */
export function WallView() {
  const t = useTranslations("wall");
  const locale = useIntlLocale();
  const rightNow = useLiveReport(endpoints.live.rightNow);
  const overview = useLiveReport(endpoints.live.overview);
  // The wall's poll: keeps its session (renewed once a day) and says it is on screen.
  const heartbeat = useEndpoint(endpoints.wall.session, {});
  const stream = useStreamStatus();
  const ago = useAgeText();
  const { now, online, height } = useWallClock();
  // When the browser received the figures, in the console's time (as `now` is).
  const offset = useConsoleClockOffset();

  const queries = [rightNow, overview, heartbeat];
  const signedOut = queries.some((q) => (q.error as { status?: number } | null)?.status === 401);
  const reconnecting = !online || stream.state === "reconnecting" || queries.some((q) => q.isError);
  const data = overview.data;
  const format = data ? eventFormat(data, locale) : null;
  // The event's time of day; before the first figures, the TV's own.
  const time = (at: number) =>
    format ? format.time(new Date(at).toISOString()) : new Date(at).toLocaleTimeString(locale);
  const updatedAt =
    offset + Math.min(...[rightNow, overview].map((q) => q.dataUpdatedAt || Number.POSITIVE_INFINITY));
  const age = Number.isFinite(updatedAt) ? Math.max(0, Math.round((now - updatedAt) / 1000)) : null;

  return (
    <div
      data-wall
      className="dark flex h-screen flex-col gap-3 overflow-hidden bg-slate-50 px-6 py-4 text-slate-900"
    >
      <header className="flex items-center justify-between gap-6">
        <h1 className="truncate text-3xl font-semibold">
          {data?.day ? t("title", { day: data.day.name }) : t("titleNoDay")}
        </h1>
        <div className="flex items-center gap-6">
          {!signedOut && (
            <p
              role="status"
              data-testid="wall-status"
              className={`rounded-full px-4 py-1 text-2xl font-semibold ${reconnecting ? "bg-amber-100 text-amber-950" : "bg-green-100 text-green-950"}`}
            >
              {reconnecting ? t("reconnecting") : t("live")}
            </p>
          )}
          <p className="text-3xl font-semibold tabular-nums" data-testid="wall-clock">
            {time(now)}
          </p>
        </div>
      </header>

      {signedOut ? (
        <main className="min-h-0 flex-1">
          <p role="alert" className="rounded-xl bg-red-50 p-6 text-3xl text-red-900">
            {t("signedOut")}
          </p>
        </main>
      ) : (
        <main className="grid min-h-0 flex-1 grid-cols-5 gap-4">
          <div className="col-span-3 min-h-0 overflow-hidden" data-wall-region="right-now">
            {rightNow.data ? (
              <FitToBox version={rightNow.dataUpdatedAt}>
                <RightNowFigures
                  report={rightNow.data}
                  size="wall"
                  links={false}
                  refreshFailing={rightNow.isError}
                />
              </FitToBox>
            ) : (
              <Waiting failed={rightNow.isError} />
            )}
          </div>
          <div className="col-span-2 flex min-h-0 flex-col gap-4 overflow-hidden" data-wall-region="today">
            {data && format ? (
              <Today data={data} money={format.money} fontSize={Math.round(height / 60)} />
            ) : (
              <Waiting failed={overview.isError} />
            )}
          </div>
        </main>
      )}

      <footer className="text-xl text-slate-600">
        <p data-testid="wall-age">
          {age === null ? t("noFigures") : t("asOf", { time: time(updatedAt), age: ago(age) })}
        </p>
      </footer>
    </div>
  );
}

function Waiting({ failed }: { failed: boolean }) {
  const t = useTranslations("wall");
  return <p className="text-3xl text-slate-600">{failed ? t("unreachable") : t("loading")}</p>;
}

/** Today so far and the forecast at close, then sales by hour with the previous day and the forecast. */
function Today({
  data,
  money,
  fontSize,
}: {
  data: OverviewReport;
  money: (minor: number) => string;
  fontSize: number;
}) {
  const t = useTranslations("wall");
  const labels = hourTickLabels(data.hours, data.event?.time_zone ?? "UTC");
  const hourly = data.hours.map((h, i) => ({
    label: labels[i],
    today: h.total,
    previous: h.previous_total,
    forecast: h.forecast_total,
  }));
  const f = data.forecast;
  return (
    <>
      <dl className="grid grid-cols-2 gap-4">
        <Figure label={t("sales")} value={money(data.totals.total)} testId="wall-sales" />
        <Figure
          label={t("forecast")}
          value={f?.projected_total == null ? "—" : money(f.projected_total)}
          testId="wall-forecast"
        />
      </dl>
      <Panel id="wall-hourly" title={t("hourly")} className="flex min-h-0 flex-1 flex-col text-2xl">
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
            // About nine hour labels, whatever the screen (recharts' own spacing misjudges large labels).
            xInterval={Math.max(0, Math.ceil(hourly.length / 9) - 1)}
            series={[
              { key: "today", name: data.day?.name ?? t("today"), color: chartColors.current },
              ...(data.previous_day
                ? [{ key: "previous", name: data.previous_day.name, color: chartColors.previous, line: true }]
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
    </>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 bg-white px-5 py-3">
      <dt className="truncate text-xl font-medium text-slate-600">{label}</dt>
      <dd className="truncate text-5xl font-bold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
