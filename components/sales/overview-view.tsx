"use client";

import { useTranslations } from "next-intl";
import { chartColors, hourTickLabels, SeriesChart } from "@/components/ui/chart-frame";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty } from "@/components/ui/states";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { OverviewReport } from "@/lib/shared/api/sales";
import { formatCount } from "@/lib/shared/format/number";
import { ReportFreshness } from "../ui/as-of";
import { HourlySalesTable, LateByTerminalTable } from "../ui/breakdown-tables";
import { eventFormat } from "../ui/event-format";
import { ReportNotLoaded, useLiveReport } from "../ui/live-report";
import { RecordsNote } from "../ui/mirror-status";
import { useResourceNames } from "../ui/resource-names";
import { ForecastPanel } from "./forecast-panel";
import { RightNowPanel } from "./right-now-panel";

export function OverviewView() {
  const t = useTranslations("overview");
  const tr = useTranslations("rightNow");
  const locale = useIntlLocale();
  const query = useLiveReport(endpoints.live.overview);
  // Right now comes first, on its own query: it shows while the day's report is still loading.
  if (!query.data)
    return (
      <div className="space-y-6">
        <RightNowPanel />
        <ReportNotLoaded query={query} what={t("loading")} />
      </div>
    );
  const data = query.data;
  const { money, time, timeZone } = eventFormat(data, locale);
  if (!data.day)
    return (
      <div className="space-y-6">
        <RightNowPanel />
        <ReportFreshness report={data} query={query} />
        <Empty>{t("noDays")}</Empty>
      </div>
    );
  const labels = hourTickLabels(data.hours, timeZone);
  const hourly = data.hours.map((h, i) => ({
    label: labels[i],
    today: h.total,
    previous: h.previous_total === null ? null : h.previous_total,
    forecast: h.forecast_total,
  }));
  const perDay = data.by_day.map((d) => ({
    label: d.name,
    sales: d.total,
    topups: d.topups,
    withdrawals: d.withdrawals,
  }));

  return (
    <div className="space-y-6">
      <RightNowPanel />
      <ReportFreshness report={data} query={query} figures={data.figures} dayId={data.day.id} />
      <p className="text-sm text-slate-700">
        {t.rich("currentDay", {
          name: data.day.name,
          date: data.day.date,
          start: time(data.day.starts_at),
          end: time(data.day.ends_at),
          day: (chunks) => <strong data-testid="current-day">{chunks}</strong>,
        })}
      </p>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <Stat label={t("sales")} value={money(data.totals.total)} testId="day-total" />
        <Stat label={t("salesCount")} value={formatCount(data.totals.count, locale)} testId="day-count" />
        <Stat label={t("averageBasket")} value={money(data.totals.average_basket)} testId="average-basket" />
        <Stat
          label={tr("paid")}
          value={money(data.flows.paid.amount)}
          hint={tr("topupsCount", { count: data.flows.paid.count })}
          testId="day-topups-paid"
        />
        <Stat
          label={tr("promo")}
          value={money(data.flows.promo.amount)}
          hint={tr("promoHint", { bonus: money(data.flows.bonus.amount) })}
          testId="day-promo"
        />
        <Stat
          label={t("withdrawals")}
          value={money(data.flows.withdrawals.amount)}
          hint={t("withdrawalsHint", { count: data.flows.withdrawals.count })}
          testId="day-withdrawals"
        />
      </dl>

      {data.forecast && <ForecastPanel forecast={data.forecast} money={money} />}

      <Panel id="hourly-heading" title={t("hourlyTitle", { timeZone })}>
        <RecordsNote ctx={data} dayId={data.day.id} />
        {data.totals.count === 0 && <Empty>{t("noSales")}</Empty>}
        <SeriesChart
          label={t("hourlyChart")}
          data={hourly}
          format={money}
          hourly
          legend
          series={[
            { key: "today", name: data.day.name, color: chartColors.current },
            ...(data.previous_day
              ? [{ key: "previous", name: data.previous_day.name, color: chartColors.previous, line: true }]
              : []),
            ...(data.forecast?.projected_total != null
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
        <HourlySalesTable
          labels={labels}
          hours={data.hours}
          money={money}
          previousLabel={data.previous_day ? data.previous_day.name : t("previousDay")}
        />
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="per-day-heading" title={t("perDayTitle")}>
          <SeriesChart
            label={t("perDayChart")}
            height={220}
            data={perDay}
            format={money}
            legend
            series={[
              { key: "sales", name: t("sales"), color: chartColors.current },
              { key: "topups", name: t("topups"), color: chartColors.topups },
              { key: "withdrawals", name: t("withdrawals"), color: chartColors.withdrawals },
            ]}
          />
          <DataTable
            caption={t("perDayCaption")}
            hiddenCaption
            columns={[
              t("day"),
              numeric(t("sales")),
              numeric(t("count")),
              numeric(t("topups")),
              numeric(t("withdrawals")),
            ]}
            rows={data.by_day.map((d) => ({
              key: d.day_id,
              cells: [
                <span key="n" data-day-id={d.day_id}>
                  {d.name} ({d.date})
                </span>,
                <span key="t" data-testid={`by-day-total-${d.day_id}`}>
                  {money(d.total)}
                </span>,
                <span key="c" data-testid={`by-day-count-${d.day_id}`}>
                  {formatCount(d.count, locale)}
                </span>,
                money(d.topups),
                money(d.withdrawals),
              ],
            }))}
          />
        </Panel>

        <Panel id="late-heading" title={t("lateTitle")}>
          <RecordsNote ctx={data} dayId={data.day.id} />
          <dl className="mb-3 grid grid-cols-3 gap-3">
            <Stat label={t("lateSales")} value={formatCount(data.late.count, locale)} testId="late-count" />
            <Stat label={t("amount")} value={money(data.late.total)} testId="late-amount" />
            <Stat label={t("terminals")} value={String(data.late.devices.length)} testId="late-terminals" />
          </dl>
          {data.late.devices.length === 0 ? (
            <Empty>{t("noLate")}</Empty>
          ) : (
            <LateByTerminalTable
              caption={t("lateCaption")}
              countLabel={t("sales")}
              rows={data.late.devices.map((d) => ({ ...d, amount: d.total }))}
              money={money}
              at={time}
            />
          )}
        </Panel>
      </div>

      <SyncHealth report={data} time={time} />
    </div>
  );
}

function SyncHealth({ report, time }: { report: OverviewReport; time: (at: string) => string }) {
  const t = useTranslations("overview");
  const resources = useResourceNames();
  const { sync, as_of } = report;
  return (
    <Panel id="sync-heading" title={sync.healthy ? t("syncTitleHealthy") : t("syncTitleAttention")}>
      <ul className="space-y-1 text-sm" data-testid="sync-health">
        <li>{t("asOf", { time: as_of ? time(as_of) : t("never") })}</li>
        <li>
          {t("lag", {
            lag: sync.sales_lag_seconds === null ? "—" : `${Math.round(sync.sales_lag_seconds)} s`,
          })}
        </li>
        <li>
          {t("worker", {
            state: sync.worker_stale === null ? t("neverRan") : sync.worker_stale ? t("stale") : t("running"),
          })}
        </li>
        {sync.failing.length > 0 && <li>{t("failing", { resources: resources.list(sync.failing) })}</li>}
        {sync.pending.length > 0 && <li>{t("pending", { resources: resources.list(sync.pending) })}</li>}
        {sync.days_mismatched.length > 0 && (
          <li>{t("mismatched", { days: sync.days_mismatched.join(", ") })}</li>
        )}
        {sync.last_error && (
          <li>
            {t("lastError", { time: time(sync.last_error.at), message: sync.last_error.message })}
            {sync.last_error.request_id && t("request", { id: sync.last_error.request_id })}
          </li>
        )}
      </ul>
    </Panel>
  );
}
