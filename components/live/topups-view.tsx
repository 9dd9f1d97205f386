"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { TopupsDayReport } from "@/lib/bff/live";
import { hourLabels } from "@/lib/live/time";
import {
  AsOf,
  ChartFigure,
  chartColors,
  DataTable,
  DayPicker,
  Empty,
  eventFormat,
  LiveError,
  Loading,
  Pager,
  Panel,
  Stat,
} from "./common";

type Direction = "topup" | "withdraw" | null;

export function TopupsView() {
  const [dayId, setDayId] = useState<string | null>(null);
  const [direction, setDirection] = useState<Direction>(null);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const query = useQuery({
    queryKey: ["live", "topups", dayId, direction, cursor],
    queryFn: () => {
      const params = new URLSearchParams();
      if (dayId) params.set("day_id", dayId);
      if (direction) params.set("direction", direction);
      if (cursor) params.set("cursor", cursor);
      return fetchJson<TopupsDayReport>(`/api/live/topups?${params}`);
    },
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <Loading what="the top-up flows" />;
  if (query.isError && !query.data) return <LiveError error={query.error} what="the top-up flows" />;
  const data = query.data as TopupsDayReport;
  const { money, time, timeZone } = eventFormat(data);
  if (!data.day) return <Empty>The event has no days yet.</Empty>;
  const labels = hourLabels(
    data.hours.map((h) => h.hour),
    timeZone,
  );
  const hourly = data.hours.map((h, i) => ({
    label: labels[i],
    topups: h.topups,
    withdrawals: h.withdrawals,
  }));
  const tooltipMoney = (v: unknown) => (typeof v === "number" ? money(v) : String(v ?? "—"));
  const params = new URLSearchParams({ day_id: data.day.id });
  if (direction) params.set("direction", direction);
  const flowTable = (
    rows: { key: string; name: string; topups: number; withdrawals: number; count: number }[],
    caption: string,
  ) => (
    <DataTable
      caption={caption}
      hiddenCaption
      columns={[
        { label: caption.split(" by ")[1] ?? "" },
        { label: "Records", numeric: true },
        { label: "Top-ups", numeric: true },
        { label: "Withdrawals", numeric: true },
      ]}
      rows={rows.map((r) => ({
        key: r.key,
        cells: [r.name, r.count, money(r.topups), money(r.withdrawals)],
      }))}
    />
  );

  return (
    <div className="space-y-6">
      <AsOf ctx={data} fetching={query.isFetching} />
      {query.isError && <LiveError error={query.error} what="the latest figures" />}
      <div className="flex flex-wrap items-center gap-4">
        <DayPicker
          days={data.days}
          value={data.day.id}
          onChange={(id) => {
            setDayId(id);
            setCursors([null]);
          }}
        />
        <a
          href={`/api/live/topups/export?${params}`}
          download
          className="mb-4 rounded border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-100"
        >
          Export the day as CSV
        </a>
      </div>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat
          label="Top-ups"
          value={money(data.flows.topups.amount)}
          hint={`${data.flows.topups.count} records`}
          testId="topups-total"
        />
        <Stat
          label="Withdrawals"
          value={money(data.flows.withdrawals.amount)}
          hint={`${data.flows.withdrawals.count} records`}
          testId="withdrawals-total"
        />
        <Stat
          label="Bonus given"
          value={money(data.flows.bonus.amount)}
          hint={`${data.flows.bonus.count} records`}
        />
        <Stat
          label="Net inflow"
          value={money(data.net_inflow)}
          hint="paid top-ups − withdrawals"
          testId="net-inflow"
        />
      </dl>

      <Panel id="topups-hourly" title={`Top-ups against withdrawals by hour (${timeZone})`}>
        <ChartFigure label="Top-ups and withdrawals by hour of the chosen day">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              title="Top-ups and withdrawals by hour of the chosen day"
              data={hourly}
              margin={{ left: 16, right: 8 }}
            >
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" interval="preserveStartEnd" fontSize={12} />
              <YAxis tickFormatter={(v: number) => money(v)} width={80} fontSize={12} />
              <Tooltip formatter={tooltipMoney} />
              <Legend />
              <Bar dataKey="topups" name="Top-ups" fill={chartColors.topups} />
              <Bar dataKey="withdrawals" name="Withdrawals" fill={chartColors.withdrawals} />
            </BarChart>
          </ResponsiveContainer>
        </ChartFigure>
      </Panel>

      <div className="grid gap-6 lg:grid-cols-3">
        <Panel id="topups-per-day" title="Per event day">
          <DataTable
            caption="Flows per event day"
            hiddenCaption
            columns={[
              { label: "Day" },
              { label: "Top-ups", numeric: true },
              { label: "Withdrawals", numeric: true },
            ]}
            rows={data.by_day.map((d) => ({
              key: d.day_id,
              cells: [d.name, money(d.topups), money(d.withdrawals)],
            }))}
          />
        </Panel>
        <Panel id="topups-method" title="By payment method">
          {data.by_payment_method.length === 0 ? (
            <Empty>No completed top-ups or withdrawals this day.</Empty>
          ) : (
            flowTable(
              data.by_payment_method.map((m) => ({ key: m.payment_method, name: m.payment_method, ...m })),
              "Flows by method",
            )
          )}
        </Panel>
        <Panel id="topups-nature" title="By nature">
          {data.by_nature.length === 0 ? (
            <Empty>No completed top-ups or withdrawals this day.</Empty>
          ) : (
            flowTable(
              data.by_nature.map((n) => ({ key: n.nature, name: n.nature, ...n })),
              "Flows by nature",
            )
          )}
        </Panel>
      </div>

      <Panel id="topups-latest" title="Latest top-ups and withdrawals">
        <fieldset className="mb-2 flex flex-wrap gap-3 text-sm">
          <legend className="sr-only">Direction</legend>
          {(
            [
              [null, "Both"],
              ["topup", "Top-ups"],
              ["withdraw", "Withdrawals"],
            ] as const
          ).map(([value, label]) => (
            <label key={label} className="flex items-center gap-1">
              <input
                type="radio"
                name="direction"
                checked={direction === value}
                onChange={() => {
                  setDirection(value);
                  setCursors([null]);
                }}
              />
              {label}
            </label>
          ))}
        </fieldset>
        {data.latest.data.length === 0 ? (
          <Empty>Nothing in this direction this day.</Empty>
        ) : (
          <DataTable
            caption="Latest top-ups and withdrawals, newest first"
            hiddenCaption
            columns={[
              { label: "Happened" },
              { label: "Direction" },
              { label: "Method" },
              { label: "Nature" },
              { label: "Status" },
              { label: "Desk" },
              { label: "Amount", numeric: true },
            ]}
            rows={data.latest.data.map((t) => ({
              key: t.id,
              cells: [
                time(t.occurred_at),
                t.direction === "topup" ? "top-up" : "withdrawal",
                t.payment_method,
                t.nature,
                t.status,
                t.device_id ?? "—",
                money(t.amount),
              ],
            }))}
          />
        )}
        <Pager
          label="Latest top-ups pages"
          hasPrevious={cursors.length > 1}
          hasNext={data.latest.next_cursor !== null}
          onPrevious={() => setCursors((c) => c.slice(0, -1))}
          onNext={() => setCursors((c) => [...c, data.latest.next_cursor])}
        />
      </Panel>
    </div>
  );
}
