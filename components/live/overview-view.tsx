"use client";

import { useQuery } from "@tanstack/react-query";
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { OverviewReport } from "@/lib/bff/live";
import { hourLabels } from "@/lib/live/time";
import {
  AsOf,
  ChartFigure,
  chartColors,
  DataTable,
  Empty,
  eventFormat,
  LiveError,
  Loading,
  Panel,
  Stat,
} from "./common";

export function OverviewView() {
  const query = useQuery({
    queryKey: ["live", "overview"],
    queryFn: () => fetchJson<OverviewReport>("/api/live/overview"),
  });
  if (query.isPending) return <Loading what="the overview" />;
  if (query.isError) return <LiveError error={query.error} what="the overview" />;
  const data = query.data;
  const { money, time, timeZone } = eventFormat(data);
  if (!data.day)
    return (
      <>
        <AsOf ctx={data} fetching={query.isFetching} />
        <Empty>The event has no days yet: nothing to show until the first sync brings them.</Empty>
      </>
    );
  const labels = hourLabels(
    data.hours.map((h) => h.hour),
    timeZone,
  );
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
  const axisMoney = (v: number) => money(v);
  const tooltipMoney = (v: unknown) => (typeof v === "number" ? axisMoney(v) : String(v ?? "—"));
  const noSales = data.totals.count === 0;

  return (
    <div className="space-y-6">
      <AsOf ctx={data} fetching={query.isFetching} />
      <p className="text-sm text-slate-700">
        Current event day: <strong data-testid="current-day">{data.day.name}</strong> ({data.day.date},{" "}
        {time(data.day.starts_at)} → {time(data.day.ends_at)})
      </p>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <Stat label="Sales" value={money(data.totals.total)} testId="day-total" />
        <Stat label="Sales count" value={data.totals.count.toLocaleString("en-GB")} testId="day-count" />
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
        {noSales && <Empty>No sales yet this day.</Empty>}
        <ChartFigure label="Sales by hour of the current day, previous day overlaid">
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart
              title="Sales by hour of the current day, previous day overlaid"
              data={hourly}
              margin={{ left: 16, right: 8 }}
            >
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" interval="preserveStartEnd" fontSize={12} />
              <YAxis tickFormatter={(v: number) => axisMoney(v)} width={80} fontSize={12} />
              <Tooltip formatter={tooltipMoney} />
              <Legend />
              <Bar dataKey="today" name={data.day.name} fill={chartColors.current} />
              {data.previous_day && (
                <Line
                  dataKey="previous"
                  name={data.previous_day.name}
                  stroke={chartColors.previous}
                  strokeWidth={2}
                  dot={false}
                  type="monotone"
                />
              )}
            </ComposedChart>
          </ResponsiveContainer>
        </ChartFigure>
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer">Table of sales by hour</summary>
          <DataTable
            caption="Sales by hour"
            hiddenCaption
            columns={[
              { label: "Hour" },
              { label: "Sales", numeric: true },
              { label: "Count", numeric: true },
              { label: data.previous_day ? data.previous_day.name : "Previous day", numeric: true },
            ]}
            rows={data.hours.map((h, i) => ({
              key: h.hour,
              cells: [
                labels[i],
                money(h.total),
                h.count,
                h.previous_total === null ? "—" : money(h.previous_total),
              ],
            }))}
          />
        </details>
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="per-day-heading" title="Sales and flows per event day">
          <ChartFigure label="Sales, top-ups and withdrawals per event day" height={220}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                title="Sales, top-ups and withdrawals per event day"
                data={perDay}
                margin={{ left: 16, right: 8 }}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="label" fontSize={12} />
                <YAxis tickFormatter={(v: number) => axisMoney(v)} width={80} fontSize={12} />
                <Tooltip formatter={tooltipMoney} />
                <Legend />
                <Bar dataKey="sales" name="Sales" fill={chartColors.current} />
                <Bar dataKey="topups" name="Top-ups" fill={chartColors.topups} />
                <Bar dataKey="withdrawals" name="Withdrawals" fill={chartColors.withdrawals} />
              </BarChart>
            </ResponsiveContainer>
          </ChartFigure>
          <DataTable
            caption="Per event day"
            hiddenCaption
            columns={[
              { label: "Day" },
              { label: "Sales", numeric: true },
              { label: "Count", numeric: true },
              { label: "Top-ups", numeric: true },
              { label: "Withdrawals", numeric: true },
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
                  {d.count.toLocaleString("en-GB")}
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
            <Stat label="Late sales" value={data.late.count.toLocaleString("en-GB")} testId="late-count" />
            <Stat label="Amount" value={money(data.late.total)} testId="late-amount" />
            <Stat label="Terminals" value={String(data.late.devices.length)} testId="late-terminals" />
          </dl>
          {data.late.devices.length === 0 ? (
            <Empty>No late arrivals this day.</Empty>
          ) : (
            <DataTable
              caption="Late arrivals per terminal"
              hiddenCaption
              columns={[
                { label: "Terminal" },
                { label: "Sales", numeric: true },
                { label: "Amount", numeric: true },
                { label: "Latest arrival" },
              ]}
              rows={data.late.devices.map((d) => ({
                key: d.device_id,
                cells: [
                  d.device_id || "unknown",
                  d.count,
                  money(d.total),
                  d.latest_created_at ? time(d.latest_created_at) : "—",
                ],
              }))}
            />
          )}
        </Panel>
      </div>

      <Panel id="sync-heading" title={`Sync health — ${data.sync.healthy ? "healthy" : "needs attention"}`}>
        <ul className="space-y-1 text-sm" data-testid="sync-health">
          <li>Sales data as of {data.as_of ? time(data.as_of) : "never"}</li>
          <li>
            Sales lag at the last sync:{" "}
            {data.sync.sales_lag_seconds === null ? "—" : `${Math.round(data.sync.sales_lag_seconds)} s`}
          </li>
          <li>
            Worker:{" "}
            {data.sync.worker_stale === null ? "never ran" : data.sync.worker_stale ? "stale" : "running"}
          </li>
          {data.sync.failing.length > 0 && <li>Failing: {data.sync.failing.join(", ")}</li>}
          {data.sync.pending.length > 0 && <li>Not mirrored yet: {data.sync.pending.join(", ")}</li>}
          {data.sync.days_mismatched.length > 0 && (
            <li>Days differing from the upstream summary: {data.sync.days_mismatched.join(", ")}</li>
          )}
          {data.sync.last_error && (
            <li>
              Latest upstream error at {time(data.sync.last_error.at)}: {data.sync.last_error.message}
              {data.sync.last_error.request_id && ` (request ${data.sync.last_error.request_id})`}
            </li>
          )}
        </ul>
      </Panel>
    </div>
  );
}
