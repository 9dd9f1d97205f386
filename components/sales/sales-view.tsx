"use client";

import { useTranslations } from "next-intl";
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
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty } from "@/components/ui/states";
import { urlOf } from "@/lib/shared/api/call";
import { endpoints } from "@/lib/shared/api/endpoints";
import { formatCount } from "@/lib/shared/format/number";
import { CountAndTotalTable, HourlySalesTable } from "../ui/breakdown-tables";
import { DayReportHeader } from "../ui/day-report-header";
import { eventFormat } from "../ui/event-format";
import { ReportNotLoaded, useDayWithPager, useLiveReport } from "../ui/live-report";
import { RecordsNote } from "../ui/mirror-status";

export function SalesView() {
  const t = useTranslations("sales");
  const value = useValueText();
  const locale = useIntlLocale();
  const { dayId, pickDay, pager } = useDayWithPager();
  const query = useLiveReport(endpoints.live.sales, { day_id: dayId, cursor: pager.cursor });
  if (!query.data) return <ReportNotLoaded query={query} what={t("loading")} />;
  const data = query.data;
  const { money, time, timeZone } = eventFormat(data, locale);
  if (!data.day) return <Empty>{t("noDays")}</Empty>;
  const labels = hourTickLabels(data.hours, timeZone);
  const hourly = data.hours.map((h, i) => ({ label: labels[i], total: h.total, count: h.count }));

  return (
    <div className="space-y-6">
      <DayReportHeader
        report={data}
        day={data.day}
        query={query}
        onPick={pickDay}
        figures={data.figures}
        exportHref={urlOf(endpoints.live.salesExport, { query: { day_id: data.day.id } })}
      />
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label={t("sales")} value={money(data.totals.total)} testId="sales-total" />
        <Stat label={t("count")} value={formatCount(data.totals.count, locale)} testId="sales-count" />
        <Stat label={t("base")} value={money(data.totals.total_base)} />
        <Stat label={t("tax")} value={money(data.totals.total_tax)} />
      </dl>

      <Panel id="sales-hourly" title={t("hourlyTitle", { timeZone })}>
        <RecordsNote ctx={data} dayId={data.day.id} />
        {data.totals.count === 0 && <Empty>{t("noCompleted")}</Empty>}
        <SeriesChart
          label={t("hourlyChart")}
          data={hourly}
          format={money}
          hourly
          series={[{ key: "total", name: t("sales"), color: chartColors.current }]}
        />
        <HourlySalesTable labels={labels} hours={data.hours} money={money} />
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="by-product" title={t("byProduct")}>
          <CountAndTotalTable
            caption={t("byProductCaption")}
            labels={[t("product"), t("quantity"), t("sales")]}
            rows={data.by_product.map((p) => ({ key: p.product_id, count: p.quantity, ...p }))}
            money={money}
            empty={<Empty>{t("noProducts")}</Empty>}
          />
        </Panel>
        <Panel id="by-payment" title={t("byMethod")}>
          {data.by_payment_method.length === 0 ? (
            <Empty>{t("noSales")}</Empty>
          ) : (
            <>
              <ChartFrame label={t("byMethodCaption")} height={200}>
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
                caption={t("byMethodCaption")}
                labels={[t("method"), t("count"), t("sales")]}
                rows={data.by_payment_method.map((m) => ({
                  key: m.payment_method,
                  name: value(m.payment_method),
                  ...m,
                }))}
                money={money}
              />
            </>
          )}
        </Panel>
        <Panel id="by-terminal" title={t("byTerminal")}>
          <RecordsNote ctx={data} dayId={data.day.id} />
          <CountAndTotalTable
            caption={t("byTerminalCaption")}
            labels={[t("terminal"), t("count"), t("sales")]}
            scrollClassName="max-h-80 overflow-auto"
            rows={data.by_device.map((d) => ({ key: d.device_id, name: d.device_id || t("unknown"), ...d }))}
            money={money}
            empty={<Empty>{t("noSales")}</Empty>}
          />
        </Panel>
        <Panel id="by-tax" title={t("byTax")}>
          <DataTable
            caption={t("byTaxCaption")}
            hiddenCaption
            empty={<Empty>{t("noSales")}</Empty>}
            columns={[t("tax"), numeric(t("rate")), numeric(t("base")), numeric(t("taxAmount"))]}
            rows={data.by_tax.map((x) => ({
              key: `${x.tax_type}-${x.rate}`,
              cells: [x.tax_type, `${x.rate.toLocaleString(locale)} %`, money(x.base), money(x.tax)],
            }))}
          />
        </Panel>
      </div>

      <Panel id="latest-sales" title={t("latest")}>
        <RecordsNote ctx={data} dayId={data.day.id} />
        <DataTable
          caption={t("latestCaption")}
          hiddenCaption
          empty={<Empty>{t("noSalesDay")}</Empty>}
          pager={{ pager, next: data.latest.next_cursor, label: t("latestPages") }}
          columns={[
            t("happened"),
            t("arrived"),
            t("sale"),
            t("terminal"),
            t("method"),
            t("status"),
            numeric(t("total")),
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
              value(s.payment_method),
              value(s.status),
              money(s.total),
            ],
          }))}
        />
      </Panel>
    </div>
  );
}
