"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { ScansDayReport } from "@/lib/bff/live";
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
  Panel,
  Stat,
} from "./common";

export function ScansView() {
  const [dayId, setDayId] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ["live", "scans", dayId],
    queryFn: () =>
      fetchJson<ScansDayReport>(`/api/live/scans${dayId ? `?day_id=${encodeURIComponent(dayId)}` : ""}`),
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <Loading what="the door scans" />;
  if (query.isError && !query.data) return <LiveError error={query.error} what="the door scans" />;
  const data = query.data as ScansDayReport;
  const { time, timeZone } = eventFormat(data);
  if (!data.day) return <Empty>The event has no days yet.</Empty>;
  const labels = hourLabels(
    data.hours.map((h) => h.hour),
    timeZone,
  );
  const zones = data.by_zone;
  const perZoneHour = data.hours.map((h, i) => ({
    label: labels[i],
    ...Object.fromEntries(zones.map((z) => [z.zone_id || "none", h.by_zone[z.zone_id] ?? 0])),
  }));
  const allowedDenied = data.hours.map((h, i) => ({
    label: labels[i],
    allowed: h.allowed,
    denied: h.denied,
  }));

  return (
    <div className="space-y-6">
      <AsOf ctx={data} fetching={query.isFetching} />
      {query.isError && <LiveError error={query.error} what="the latest figures" />}
      <DayPicker days={data.days} value={data.day.id} onChange={setDayId} />
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3">
        <Stat label="Allowed" value={data.totals.allowed.toLocaleString("en-GB")} testId="scans-allowed" />
        <Stat label="Denied" value={data.totals.denied.toLocaleString("en-GB")} testId="scans-denied" />
        <Stat
          label="Denial rate"
          value={
            data.totals.allowed + data.totals.denied
              ? `${((100 * data.totals.denied) / (data.totals.allowed + data.totals.denied)).toFixed(1)} %`
              : "—"
          }
        />
      </dl>
      {data.totals.allowed + data.totals.denied === 0 && <Empty>No door scans this day.</Empty>}

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="scans-zone-hour" title={`Scans per zone per hour (${timeZone})`}>
          <ChartFigure label="Scans per zone per hour">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart title="Scans per zone per hour" data={perZoneHour} margin={{ left: 8, right: 8 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="label" interval="preserveStartEnd" fontSize={12} />
                <YAxis allowDecimals={false} fontSize={12} />
                <Tooltip />
                <Legend />
                {zones.map((z, i) => (
                  <Bar
                    key={z.zone_id}
                    dataKey={z.zone_id || "none"}
                    name={z.name}
                    stackId="zones"
                    fill={chartColors.palette[i % chartColors.palette.length]}
                  />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </ChartFigure>
        </Panel>
        <Panel id="scans-allowed-denied" title="Allowed against denied, per hour">
          <ChartFigure label="Allowed and denied scans per hour">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                title="Allowed and denied scans per hour"
                data={allowedDenied}
                margin={{ left: 8, right: 8 }}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="label" interval="preserveStartEnd" fontSize={12} />
                <YAxis allowDecimals={false} fontSize={12} />
                <Tooltip />
                <Legend />
                <Bar dataKey="allowed" name="Allowed" stackId="a" fill={chartColors.allowed} />
                <Bar dataKey="denied" name="Denied" stackId="a" fill={chartColors.denied} />
              </BarChart>
            </ResponsiveContainer>
          </ChartFigure>
        </Panel>
        <Panel id="scans-by-zone" title="Per zone">
          <DataTable
            caption="Scans per zone"
            hiddenCaption
            columns={[
              { label: "Zone" },
              { label: "Allowed", numeric: true },
              { label: "Denied", numeric: true },
            ]}
            rows={zones.map((z) => ({ key: z.zone_id, cells: [z.name, z.allowed, z.denied] }))}
          />
        </Panel>
        <Panel id="scans-reasons" title="Denials by reason">
          {data.denied_by_reason.length === 0 ? (
            <Empty>No denials this day.</Empty>
          ) : (
            <DataTable
              caption="Denials by reason"
              hiddenCaption
              columns={[{ label: "Reason" }, { label: "Denied", numeric: true }]}
              rows={data.denied_by_reason.map((r) => ({ key: r.reason, cells: [r.reason, r.count] }))}
            />
          )}
        </Panel>
      </div>

      <Panel id="scans-latest-denials" title="Latest denials">
        {data.latest_denials.length === 0 ? (
          <Empty>No denials this day.</Empty>
        ) : (
          <DataTable
            caption="Latest denials, newest first"
            hiddenCaption
            columns={[
              { label: "When" },
              { label: "Zone" },
              { label: "Reason" },
              { label: "Code" },
              { label: "Gate" },
            ]}
            rows={data.latest_denials.map((d) => ({
              key: d.id,
              cells: [
                time(d.occurred_at),
                d.zone ?? "—",
                d.reason ?? "—",
                d.ticket_code ?? "—",
                d.device_id ?? "—",
              ],
            }))}
          />
        )}
      </Panel>
    </div>
  );
}
