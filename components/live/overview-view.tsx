"use client";

import { chartColors, hourTickLabels, SeriesChart } from "@/components/ui/chart-frame";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty } from "@/components/ui/states";
import { OverviewReport } from "@/lib/shared/api/live";
import { formatCount } from "@/lib/shared/format/number";
import { ReportFreshness } from "../ui/as-of";
import { HourlySalesTable, LateByTerminalTable } from "../ui/breakdown-tables";
import { eventFormat } from "../ui/event-format";
import { ReportNotLoaded, useLiveReport } from "../ui/live-report";

export function OverviewView() {
  const query = useLiveReport("/api/live/overview", OverviewReport);
  if (!query.data) return <ReportNotLoaded query={query} what="the overview" />;
  const data = query.data;
  const { money, time, timeZone } = eventFormat(data);
  if (!data.day)
    return (
      <>
        <ReportFreshness report={data} query={query} />
        <Empty>The event has no days yet: nothing to show until the first sync brings them.</Empty>
      </>
    );
  const labels = hourTickLabels(data.hours, timeZone);
  const hourly = data.hours.map((h, i) => ({
    label: labels[i],
    today: h.total,
    previous: h.previous_total === null ? null : h.previous_total,
  }));
  const perDay = data.by_day.map((d) => ({
    label: d.name,
    sales: d.total,
    topups: d.topups,
    withdrawals: d.withdrawals,
  }));

  return (
    <div className="space-y-6">
      <ReportFreshness report={data} query={query} />
      <p className="text-sm text-slate-700">
        Current event day: <strong data-testid="current-day">{data.day.name}</strong> ({data.day.date},{" "}
        {time(data.day.starts_at)} → {time(data.day.ends_at)})
      </p>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <Stat label="Sales" value={money(data.totals.total)} testId="day-total" />
        <Stat label="Sales count" value={formatCount(data.totals.count)} testId="day-count" />
        <Stat label="Average basket" value={money(data.totals.average_basket)} testId="average-basket" />
        <Stat
          label="Top-ups"
          value={money(data.flows.topups.amount)}
          hint={`${data.flows.topups.count} top-ups`}
          testId="day-topups"
        />
        <Stat
          label="Withdrawals"
          value={money(data.flows.withdrawals.amount)}
          hint={`${data.flows.withdrawals.count} withdrawals`}
          testId="day-withdrawals"
        />
        <Stat
          label="Bonus given"
          value={money(data.flows.bonus.amount)}
          hint={`${data.flows.bonus.count} bonuses`}
          testId="day-bonus"
        />
      </dl>

      <Panel id="hourly-heading" title={`Sales by hour (${timeZone}), by when they happened`}>
        {data.totals.count === 0 && <Empty>No sales yet this day.</Empty>}
        <SeriesChart
          label="Sales by hour of the current day, previous day overlaid"
          data={hourly}
          format={money}
          hourly
          legend
          series={[
            { key: "today", name: data.day.name, color: chartColors.current },
            ...(data.previous_day
              ? [{ key: "previous", name: data.previous_day.name, color: chartColors.previous, line: true }]
              : []),
          ]}
        />
        <HourlySalesTable
          labels={labels}
          hours={data.hours}
          money={money}
          previousLabel={data.previous_day ? data.previous_day.name : "Previous day"}
        />
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="per-day-heading" title="Sales and flows per event day">
          <SeriesChart
            label="Sales, top-ups and withdrawals per event day"
            height={220}
            data={perDay}
            format={money}
            legend
            series={[
              { key: "sales", name: "Sales", color: chartColors.current },
              { key: "topups", name: "Top-ups", color: chartColors.topups },
              { key: "withdrawals", name: "Withdrawals", color: chartColors.withdrawals },
            ]}
          />
          <DataTable
            caption="Per event day"
            hiddenCaption
            columns={["Day", numeric("Sales"), numeric("Count"), numeric("Top-ups"), numeric("Withdrawals")]}
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
                  {formatCount(d.count)}
                </span>,
                money(d.topups),
                money(d.withdrawals),
              ],
            }))}
          />
        </Panel>

        <Panel
          id="late-heading"
          title="Late arrivals of the day (reached the server > 10 min after the sale)"
        >
          <dl className="mb-3 grid grid-cols-3 gap-3">
            <Stat label="Late sales" value={formatCount(data.late.count)} testId="late-count" />
            <Stat label="Amount" value={money(data.late.total)} testId="late-amount" />
            <Stat label="Terminals" value={String(data.late.devices.length)} testId="late-terminals" />
          </dl>
          {data.late.devices.length === 0 ? (
            <Empty>No late arrivals this day.</Empty>
          ) : (
            <LateByTerminalTable
              caption="Late arrivals per terminal"
              countLabel="Sales"
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
  const { sync, as_of } = report;
  return (
    <Panel id="sync-heading" title={`Sync health — ${sync.healthy ? "healthy" : "needs attention"}`}>
      <ul className="space-y-1 text-sm" data-testid="sync-health">
        <li>Sales data as of {as_of ? time(as_of) : "never"}</li>
        <li>
          Sales lag at the last sync:{" "}
          {sync.sales_lag_seconds === null ? "—" : `${Math.round(sync.sales_lag_seconds)} s`}
        </li>
        <li>Worker: {sync.worker_stale === null ? "never ran" : sync.worker_stale ? "stale" : "running"}</li>
        {sync.failing.length > 0 && <li>Failing: {sync.failing.join(", ")}</li>}
        {sync.pending.length > 0 && <li>Not mirrored yet: {sync.pending.join(", ")}</li>}
        {sync.days_mismatched.length > 0 && (
          <li>Days differing from the upstream summary: {sync.days_mismatched.join(", ")}</li>
        )}
        {sync.last_error && (
          <li>
            Latest upstream error at {time(sync.last_error.at)}: {sync.last_error.message}
            {sync.last_error.request_id && ` (request ${sync.last_error.request_id})`}
          </li>
        )}
      </ul>
    </Panel>
  );
}
