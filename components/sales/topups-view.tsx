"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { chartColors, hourTickLabels, SeriesChart } from "@/components/ui/chart-frame";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty } from "@/components/ui/states";
import { urlOf } from "@/lib/shared/api/call";
import { endpoints } from "@/lib/shared/api/endpoints";
import { FlowsTable } from "../ui/breakdown-tables";
import { DayReportHeader } from "../ui/day-report-header";
import { eventFormat } from "../ui/event-format";
import { ReportNotLoaded, useDayWithPager, useLiveReport } from "../ui/live-report";
import { RecordsNote } from "../ui/mirror-status";
import { TopupInsightsPanels } from "./topup-insights-panel";

type Direction = "topup" | "withdraw" | null;

/** The direction filter's choices and the words of each. */
const directions = [
  [null, "both"],
  ["topup", "topups"],
  ["withdraw", "withdrawals"],
] as const;

export function TopupsView() {
  const t = useTranslations("topups");
  const tm = useTranslations("mirror");
  const tr = useTranslations("rightNow");
  const value = useValueText();
  const locale = useIntlLocale();
  const { dayId, pickDay, pager } = useDayWithPager();
  const [direction, setDirection] = useState<Direction>(null);
  const query = useLiveReport(endpoints.live.topups, {
    day_id: dayId,
    direction,
    cursor: pager.cursor,
  });
  if (!query.data) return <ReportNotLoaded query={query} what={t("loading")} />;
  const data = query.data;
  const { money, time, timeZone } = eventFormat(data, locale);
  if (!data.day) return <Empty>{t("noDays")}</Empty>;
  const labels = hourTickLabels(data.hours, timeZone);
  const hourly = data.hours.map((h, i) => ({
    label: labels[i],
    topups: h.topups,
    withdrawals: h.withdrawals,
  }));
  const exportHref = urlOf(endpoints.live.topupsExport, {
    query: { day_id: data.day.id, direction: direction ?? undefined },
  });
  const noFlows = <Empty>{t("noFlows")}</Empty>;

  return (
    <div className="space-y-6">
      <DayReportHeader
        report={data}
        figures={data.figures}
        day={data.day}
        query={query}
        onPick={pickDay}
        exportHref={exportHref}
      />
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat
          label={tr("paid")}
          value={money(data.flows.paid.amount)}
          hint={t("records", { count: data.flows.paid.count })}
          testId="topups-total"
        />
        <Stat
          label={t("withdrawals")}
          value={money(data.flows.withdrawals.amount)}
          hint={t("records", { count: data.flows.withdrawals.count })}
          testId="withdrawals-total"
        />
        <Stat
          label={tr("promo")}
          value={money(data.flows.promo.amount)}
          hint={tr("promoHint", { bonus: money(data.flows.bonus.amount) })}
          testId="promo-total"
        />
        <Stat
          label={t("netInflow")}
          value={data.net_inflow === null ? "—" : money(data.net_inflow)}
          hint={data.net_inflow === null ? tm("netInflowLater") : t("netHint")}
          testId="net-inflow"
        />
      </dl>

      <Panel id="topups-hourly" title={t("hourlyTitle", { timeZone })}>
        <RecordsNote ctx={data} dayId={data.day.id} />
        <SeriesChart
          label={t("hourlyChart")}
          data={hourly}
          format={money}
          hourly
          legend
          series={[
            { key: "topups", name: t("topups"), color: chartColors.topups },
            { key: "withdrawals", name: t("withdrawals"), color: chartColors.withdrawals },
          ]}
        />
      </Panel>

      <div className="grid gap-6 lg:grid-cols-3">
        <Panel id="topups-per-day" title={t("perDay")}>
          <FlowsTable
            caption={t("perDayCaption")}
            nameLabel={t("day")}
            rows={data.by_day.map((d) => ({ key: d.day_id, ...d }))}
            money={money}
          />
        </Panel>
        <Panel id="topups-method" title={t("byMethod")}>
          <FlowsTable
            caption={t("byMethodCaption")}
            nameLabel={t("method")}
            withRecords
            rows={data.by_payment_method.map((m) => ({
              key: m.payment_method,
              name: value(m.payment_method),
              ...m,
            }))}
            money={money}
            empty={noFlows}
          />
        </Panel>
        <Panel id="topups-nature" title={t("byNature")}>
          <RecordsNote ctx={data} dayId={data.day.id} />
          <FlowsTable
            caption={t("byNatureCaption")}
            nameLabel={t("nature")}
            withRecords
            rows={data.by_nature.map((n) => ({ key: n.nature, ...n, name: value(n.nature) }))}
            money={money}
            empty={noFlows}
          />
        </Panel>
      </div>

      {data.insights && <TopupInsightsPanels insights={data.insights} money={money} />}

      <Panel id="topups-latest" title={t("latest")}>
        <RecordsNote ctx={data} dayId={data.day.id} />
        <fieldset className="mb-2 flex flex-wrap gap-3 text-sm">
          <legend className="sr-only">{t("direction")}</legend>
          {directions.map(([choice, label]) => (
            <label key={label} className="flex items-center gap-1">
              <input
                type="radio"
                name="direction"
                checked={direction === choice}
                onChange={() => {
                  setDirection(choice);
                  pager.reset();
                }}
              />
              {t(label)}
            </label>
          ))}
        </fieldset>
        <DataTable
          caption={t("latestCaption")}
          hiddenCaption
          empty={<Empty>{t("nothing")}</Empty>}
          pager={{ pager, next: data.latest.next_cursor, label: t("latestPages") }}
          columns={[
            t("happened"),
            t("direction"),
            t("methodColumn"),
            t("natureColumn"),
            t("status"),
            t("desk"),
            numeric(t("amount")),
          ]}
          rows={data.latest.data.map((r) => ({
            key: r.id,
            cells: [
              time(r.occurred_at),
              r.direction === "topup" ? t("topup") : t("withdrawal"),
              value(r.payment_method),
              value(r.nature),
              value(r.status),
              r.device_id ?? "—",
              money(r.amount),
            ],
          }))}
        />
      </Panel>
    </div>
  );
}
