"use client";

import { useState } from "react";
import { chartColors, hourTickLabels, paletteColor, SeriesChart } from "@/components/ui/chart-frame";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty } from "@/components/ui/states";
import { ScansDayReport } from "@/lib/shared/api/live";
import { formatCount } from "@/lib/shared/format/number";
import { DayReportHeader } from "../ui/day-report-header";
import { eventFormat } from "../ui/event-format";
import { ReportNotLoaded, useLiveReport } from "../ui/live-report";

export function ScansView() {
  const [dayId, setDayId] = useState<string | null>(null);
  const query = useLiveReport("/api/live/scans", ScansDayReport, { day_id: dayId });
  if (!query.data) return <ReportNotLoaded query={query} what="the door scans" />;
  const data = query.data;
  const { time, timeZone } = eventFormat(data);
  if (!data.day) return <Empty>The event has no days yet.</Empty>;
  const labels = hourTickLabels(data.hours, timeZone);
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
  const { allowed, denied } = data.totals;

  return (
    <div className="space-y-6">
      <DayReportHeader report={data} day={data.day} query={query} onPick={setDayId} />
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-3">
        <Stat label="Allowed" value={formatCount(allowed)} testId="scans-allowed" />
        <Stat label="Denied" value={formatCount(denied)} testId="scans-denied" />
        <Stat
          label="Denial rate"
          value={allowed + denied ? `${((100 * denied) / (allowed + denied)).toFixed(1)} %` : "—"}
        />
      </dl>
      {allowed + denied === 0 && <Empty>No door scans this day.</Empty>}

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="scans-zone-hour" title={`Scans per zone per hour (${timeZone})`}>
          <SeriesChart
            label="Scans per zone per hour"
            data={perZoneHour}
            hourly
            legend
            series={zones.map((z, i) => ({
              key: z.zone_id || "none",
              name: z.name,
              color: paletteColor(i),
              stack: "zones",
            }))}
          />
        </Panel>
        <Panel id="scans-allowed-denied" title="Allowed against denied, per hour">
          <SeriesChart
            label="Allowed and denied scans per hour"
            data={allowedDenied}
            hourly
            legend
            series={[
              { key: "allowed", name: "Allowed", color: chartColors.allowed, stack: "a" },
              { key: "denied", name: "Denied", color: chartColors.denied, stack: "a" },
            ]}
          />
        </Panel>
        <Panel id="scans-by-zone" title="Per zone">
          <DataTable
            caption="Scans per zone"
            hiddenCaption
            columns={["Zone", numeric("Allowed"), numeric("Denied")]}
            rows={zones.map((z) => ({ key: z.zone_id, cells: [z.name, z.allowed, z.denied] }))}
          />
        </Panel>
        <Panel id="scans-reasons" title="Denials by reason">
          <DataTable
            caption="Denials by reason"
            hiddenCaption
            empty={<Empty>No denials this day.</Empty>}
            columns={["Reason", numeric("Denied")]}
            rows={data.denied_by_reason.map((r) => ({ key: r.reason, cells: [r.reason, r.count] }))}
          />
        </Panel>
      </div>

      <Panel id="scans-latest-denials" title="Latest denials">
        <DataTable
          caption="Latest denials, newest first"
          hiddenCaption
          empty={<Empty>No denials this day.</Empty>}
          columns={["When", "Zone", "Reason", "Code", "Gate"]}
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
      </Panel>
    </div>
  );
}
