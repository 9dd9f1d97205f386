"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { SalesDayReport } from "@/lib/bff/live";
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

export function SalesView() {
  const [dayId, setDayId] = useState<string | null>(null);
  // Cursors of the pages seen so far: [null] is the newest page.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const query = useQuery({
    queryKey: ["live", "sales", dayId, cursor],
    queryFn: () => {
      const params = new URLSearchParams();
      if (dayId) params.set("day_id", dayId);
      if (cursor) params.set("cursor", cursor);
      return fetchJson<SalesDayReport>(`/api/live/sales?${params}`);
    },
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <Loading what="the sales" />;
  if (query.isError && !query.data) return <LiveError error={query.error} what="the sales" />;
  const data = query.data as SalesDayReport;
  const { money, time, timeZone } = eventFormat(data);
  const pickDay = (id: string) => {
    setDayId(id);
    setCursors([null]);
  };
  if (!data.day) return <Empty>The event has no days yet.</Empty>;
  const labels = hourLabels(
    data.hours.map((h) => h.hour),
    timeZone,
  );
  const hourly = data.hours.map((h, i) => ({ label: labels[i], total: h.total, count: h.count }));
  const tooltipMoney = (v: unknown) => (typeof v === "number" ? money(v) : String(v ?? "—"));
  const exportHref = `/api/live/sales/export?day_id=${encodeURIComponent(data.day.id)}`;

  return (
    <div className="space-y-6">
      <AsOf ctx={data} fetching={query.isFetching} />
      {query.isError && <LiveError error={query.error} what="the latest figures" />}
      <div className="flex flex-wrap items-center gap-4">
        <DayPicker days={data.days} value={data.day.id} onChange={pickDay} />
        <a
          href={exportHref}
          download
          className="mb-4 rounded border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-100"
        >
          Export the day as CSV
        </a>
      </div>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Sales" value={money(data.totals.total)} testId="sales-total" />
        <Stat label="Count" value={data.totals.count.toLocaleString("en-GB")} testId="sales-count" />
        <Stat label="Base" value={money(data.totals.total_base)} />
        <Stat label="Tax" value={money(data.totals.total_tax)} />
      </dl>

      <Panel id="sales-hourly" title={`Sales by hour (${timeZone}), by when they happened`}>
        {data.totals.count === 0 && <Empty>No completed sales this day.</Empty>}
        <ChartFigure label="Sales by hour of the chosen day">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart title="Sales by hour of the chosen day" data={hourly} margin={{ left: 16, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" interval="preserveStartEnd" fontSize={12} />
              <YAxis tickFormatter={(v: number) => money(v)} width={80} fontSize={12} />
              <Tooltip formatter={tooltipMoney} />
              <Bar dataKey="total" name="Sales" fill={chartColors.current} />
            </BarChart>
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
            ]}
            rows={data.hours.map((h, i) => ({ key: h.hour, cells: [labels[i], money(h.total), h.count] }))}
          />
        </details>
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="by-product" title="By product">
          {data.by_product.length === 0 ? (
            <Empty>No products sold.</Empty>
          ) : (
            <DataTable
              caption="Sales by product"
              hiddenCaption
              columns={[
                { label: "Product" },
                { label: "Quantity", numeric: true },
                { label: "Sales", numeric: true },
              ]}
              rows={data.by_product.map((p) => ({
                key: p.product_id,
                cells: [p.name, p.quantity.toLocaleString("en-GB"), money(p.total)],
              }))}
            />
          )}
        </Panel>
        <Panel id="by-payment" title="By payment method">
          {data.by_payment_method.length === 0 ? (
            <Empty>No sales.</Empty>
          ) : (
            <>
              <ChartFigure label="Sales by payment method" height={200}>
                <ResponsiveContainer width="100%" height="100%">
                  <PieChart>
                    <Pie
                      data={data.by_payment_method}
                      dataKey="total"
                      nameKey="payment_method"
                      outerRadius={80}
                      label={({ value }: { value?: number }) => money(value ?? 0)}
                    >
                      {data.by_payment_method.map((m, i) => (
                        <Cell
                          key={m.payment_method}
                          fill={chartColors.palette[i % chartColors.palette.length]}
                        />
                      ))}
                    </Pie>
                    <Tooltip formatter={tooltipMoney} />
                  </PieChart>
                </ResponsiveContainer>
              </ChartFigure>
              <DataTable
                caption="Sales by payment method"
                hiddenCaption
                columns={[
                  { label: "Method" },
                  { label: "Count", numeric: true },
                  { label: "Sales", numeric: true },
                ]}
                rows={data.by_payment_method.map((m) => ({
                  key: m.payment_method,
                  cells: [m.payment_method, m.count.toLocaleString("en-GB"), money(m.total)],
                }))}
              />
            </>
          )}
        </Panel>
        <Panel id="by-terminal" title="By terminal">
          {data.by_device.length === 0 ? (
            <Empty>No sales.</Empty>
          ) : (
            <DataTable
              caption="Sales by terminal"
              hiddenCaption
              scrollClassName="max-h-80 overflow-auto"
              columns={[
                { label: "Terminal" },
                { label: "Count", numeric: true },
                { label: "Sales", numeric: true },
              ]}
              rows={data.by_device.map((d) => ({
                key: d.device_id,
                cells: [d.device_id || "unknown", d.count.toLocaleString("en-GB"), money(d.total)],
              }))}
            />
          )}
        </Panel>
        <Panel id="by-tax" title="By tax rate">
          {data.by_tax.length === 0 ? (
            <Empty>No sales.</Empty>
          ) : (
            <DataTable
              caption="Sales by tax rate"
              hiddenCaption
              columns={[
                { label: "Tax" },
                { label: "Rate", numeric: true },
                { label: "Base", numeric: true },
                { label: "Tax amount", numeric: true },
              ]}
              rows={data.by_tax.map((t) => ({
                key: `${t.tax_type}-${t.rate}`,
                cells: [t.tax_type, `${t.rate} %`, money(t.base), money(t.tax)],
              }))}
            />
          )}
        </Panel>
      </div>

      <Panel id="latest-sales" title="Latest sales">
        {data.latest.data.length === 0 ? (
          <Empty>No sales this day.</Empty>
        ) : (
          <DataTable
            caption="Latest sales, newest first"
            hiddenCaption
            columns={[
              { label: "Happened" },
              { label: "Arrived" },
              { label: "Sale" },
              { label: "Terminal" },
              { label: "Method" },
              { label: "Status" },
              { label: "Total", numeric: true },
            ]}
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
        )}
        <Pager
          label="Latest sales pages"
          hasPrevious={cursors.length > 1}
          hasNext={data.latest.next_cursor !== null}
          onPrevious={() => setCursors((c) => c.slice(0, -1))}
          onNext={() => setCursors((c) => [...c, data.latest.next_cursor])}
        />
      </Panel>
    </div>
  );
}
