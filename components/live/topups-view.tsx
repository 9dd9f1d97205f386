"use client";

import { useState } from "react";
import { chartColors, hourTickLabels, SeriesChart } from "@/components/ui/chart-frame";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty } from "@/components/ui/states";
import { TopupsDayReport } from "@/lib/shared/api/live";
import { FlowsTable } from "../ui/breakdown-tables";
import { DayReportHeader } from "../ui/day-report-header";
import { eventFormat } from "../ui/event-format";
import { ReportNotLoaded, useDayWithPager, useLiveReport } from "../ui/live-report";

type Direction = "topup" | "withdraw" | null;

const directions = [
  [null, "Both"],
  ["topup", "Top-ups"],
  ["withdraw", "Withdrawals"],
] as const;

export function TopupsView() {
  const { dayId, pickDay, pager } = useDayWithPager();
  const [direction, setDirection] = useState<Direction>(null);
  const query = useLiveReport("/api/live/topups", TopupsDayReport, {
    day_id: dayId,
    direction,
    cursor: pager.cursor,
  });
  if (!query.data) return <ReportNotLoaded query={query} what="the top-up flows" />;
  const data = query.data;
  const { money, time, timeZone } = eventFormat(data);
  if (!data.day) return <Empty>The event has no days yet.</Empty>;
  const labels = hourTickLabels(data.hours, timeZone);
  const hourly = data.hours.map((h, i) => ({
    label: labels[i],
    topups: h.topups,
    withdrawals: h.withdrawals,
  }));
  const exportParams = new URLSearchParams({ day_id: data.day.id });
  if (direction) exportParams.set("direction", direction);
  const noFlows = <Empty>No completed top-ups or withdrawals this day.</Empty>;

  return (
    <div className="space-y-6">
      <DayReportHeader
        report={data}
        day={data.day}
        query={query}
        onPick={pickDay}
        exportHref={`/api/live/topups/export?${exportParams}`}
      />
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
        <SeriesChart
          label="Top-ups and withdrawals by hour of the chosen day"
          data={hourly}
          format={money}
          hourly
          legend
          series={[
            { key: "topups", name: "Top-ups", color: chartColors.topups },
            { key: "withdrawals", name: "Withdrawals", color: chartColors.withdrawals },
          ]}
        />
      </Panel>

      <div className="grid gap-6 lg:grid-cols-3">
        <Panel id="topups-per-day" title="Per event day">
          <FlowsTable
            caption="Flows per event day"
            nameLabel="Day"
            rows={data.by_day.map((d) => ({ key: d.day_id, ...d }))}
            money={money}
          />
        </Panel>
        <Panel id="topups-method" title="By payment method">
          <FlowsTable
            caption="Flows by method"
            nameLabel="method"
            withRecords
            rows={data.by_payment_method.map((m) => ({
              key: m.payment_method,
              name: m.payment_method,
              ...m,
            }))}
            money={money}
            empty={noFlows}
          />
        </Panel>
        <Panel id="topups-nature" title="By nature">
          <FlowsTable
            caption="Flows by nature"
            nameLabel="nature"
            withRecords
            rows={data.by_nature.map((n) => ({ key: n.nature, name: n.nature, ...n }))}
            money={money}
            empty={noFlows}
          />
        </Panel>
      </div>

      <Panel id="topups-latest" title="Latest top-ups and withdrawals">
        <fieldset className="mb-2 flex flex-wrap gap-3 text-sm">
          <legend className="sr-only">Direction</legend>
          {directions.map(([value, label]) => (
            <label key={label} className="flex items-center gap-1">
              <input
                type="radio"
                name="direction"
                checked={direction === value}
                onChange={() => {
                  setDirection(value);
                  pager.reset();
                }}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <DataTable
          caption="Latest top-ups and withdrawals, newest first"
          hiddenCaption
          empty={<Empty>Nothing in this direction this day.</Empty>}
          pager={{ pager, next: data.latest.next_cursor, label: "Latest top-ups pages" }}
          columns={["Happened", "Direction", "Method", "Nature", "Status", "Desk", numeric("Amount")]}
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
      </Panel>
    </div>
  );
}
