"use client";

import { Cell, Pie, PieChart, Tooltip } from "recharts";
import {
  ChartFrame,
  chartColors,
  hourTickLabels,
  paletteColor,
  SeriesChart,
  tooltipValue,
} from "@/components/ui/chart-frame";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty } from "@/components/ui/states";
import { SalesDayReport } from "@/lib/shared/api/live";
import { formatCount } from "@/lib/shared/format/number";
import { CountAndTotalTable, HourlySalesTable } from "../ui/breakdown-tables";
import { DayReportHeader } from "../ui/day-report-header";
import { eventFormat } from "../ui/event-format";
import { ReportNotLoaded, useDayWithPager, useLiveReport } from "../ui/live-report";

export function SalesView() {
  const { dayId, pickDay, pager } = useDayWithPager();
  const query = useLiveReport("/api/live/sales", SalesDayReport, { day_id: dayId, cursor: pager.cursor });
  if (!query.data) return <ReportNotLoaded query={query} what="the sales" />;
  const data = query.data;
  const { money, time, timeZone } = eventFormat(data);
  if (!data.day) return <Empty>The event has no days yet.</Empty>;
  const labels = hourTickLabels(data.hours, timeZone);
  const hourly = data.hours.map((h, i) => ({ label: labels[i], total: h.total, count: h.count }));

  return (
    <div className="space-y-6">
      <DayReportHeader
        report={data}
        day={data.day}
        query={query}
        onPick={pickDay}
        exportHref={`/api/live/sales/export?day_id=${encodeURIComponent(data.day.id)}`}
      />
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Sales" value={money(data.totals.total)} testId="sales-total" />
        <Stat label="Count" value={formatCount(data.totals.count)} testId="sales-count" />
        <Stat label="Base" value={money(data.totals.total_base)} />
        <Stat label="Tax" value={money(data.totals.total_tax)} />
      </dl>

      <Panel id="sales-hourly" title={`Sales by hour (${timeZone}), by when they happened`}>
        {data.totals.count === 0 && <Empty>No completed sales this day.</Empty>}
        <SeriesChart
          label="Sales by hour of the chosen day"
          data={hourly}
          format={money}
          hourly
          series={[{ key: "total", name: "Sales", color: chartColors.current }]}
        />
        <HourlySalesTable labels={labels} hours={data.hours} money={money} />
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="by-product" title="By product">
          <CountAndTotalTable
            caption="Sales by product"
            labels={["Product", "Quantity", "Sales"]}
            rows={data.by_product.map((p) => ({ key: p.product_id, count: p.quantity, ...p }))}
            money={money}
            empty={<Empty>No products sold.</Empty>}
          />
        </Panel>
        <Panel id="by-payment" title="By payment method">
          {data.by_payment_method.length === 0 ? (
            <Empty>No sales.</Empty>
          ) : (
            <>
              <ChartFrame label="Sales by payment method" height={200}>
                <PieChart>
                  <Pie
                    data={data.by_payment_method}
                    dataKey="total"
                    nameKey="payment_method"
                    outerRadius={80}
                    label={({ value }: { value?: number }) => money(value ?? 0)}
                  >
                    {data.by_payment_method.map((m, i) => (
                      <Cell key={m.payment_method} fill={paletteColor(i)} />
                    ))}
                  </Pie>
                  <Tooltip formatter={tooltipValue(money)} />
                </PieChart>
              </ChartFrame>
              <CountAndTotalTable
                caption="Sales by payment method"
                labels={["Method", "Count", "Sales"]}
                rows={data.by_payment_method.map((m) => ({
                  key: m.payment_method,
                  name: m.payment_method,
                  ...m,
                }))}
                money={money}
              />
            </>
          )}
        </Panel>
        <Panel id="by-terminal" title="By terminal">
          <CountAndTotalTable
            caption="Sales by terminal"
            labels={["Terminal", "Count", "Sales"]}
            scrollClassName="max-h-80 overflow-auto"
            rows={data.by_device.map((d) => ({ key: d.device_id, name: d.device_id || "unknown", ...d }))}
            money={money}
            empty={<Empty>No sales.</Empty>}
          />
        </Panel>
        <Panel id="by-tax" title="By tax rate">
          <DataTable
            caption="Sales by tax rate"
            hiddenCaption
            empty={<Empty>No sales.</Empty>}
            columns={["Tax", numeric("Rate"), numeric("Base"), numeric("Tax amount")]}
            rows={data.by_tax.map((t) => ({
              key: `${t.tax_type}-${t.rate}`,
              cells: [t.tax_type, `${t.rate} %`, money(t.base), money(t.tax)],
            }))}
          />
        </Panel>
      </div>

      <Panel id="latest-sales" title="Latest sales">
        <DataTable
          caption="Latest sales, newest first"
          hiddenCaption
          empty={<Empty>No sales this day.</Empty>}
          pager={{ pager, next: data.latest.next_cursor, label: "Latest sales pages" }}
          columns={["Happened", "Arrived", "Sale", "Terminal", "Method", "Status", numeric("Total")]}
          rows={data.latest.data.map((s) => ({
            key: s.id,
            cells: [
              time(s.occurred_at),
              time(s.created_at),
              <span key="id" className="font-mono text-xs">
                {s.id}
              </span>,
              s.device_id ?? "—",
              s.payment_method,
              s.status,
              money(s.total),
            ],
          }))}
        />
      </Panel>
    </div>
  );
}
