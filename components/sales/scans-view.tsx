"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { chartColors, hourTickLabels, paletteColor, SeriesChart } from "@/components/ui/chart-frame";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty } from "@/components/ui/states";
import { endpoints } from "@/lib/shared/api/endpoints";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatCount } from "@/lib/shared/format/number";
import { DayReportHeader } from "../ui/day-report-header";
import { eventFormat } from "../ui/event-format";
import { ReportNotLoaded, useLiveReport } from "../ui/live-report";
import { RecordsNote } from "../ui/mirror-status";

export function ScansView() {
  const t = useTranslations("scans");
  const value = useValueText();
  const locale = useIntlLocale();
  const [dayId, setDayId] = useState<string | null>(null);
  const query = useLiveReport(endpoints.live.scans, { day_id: dayId });
  if (!query.data) return <ReportNotLoaded query={query} what={t("loading")} />;
  const data = query.data;
  const { time, timeZone } = eventFormat(data, locale);
  if (!data.day) return <Empty>{t("noDays")}</Empty>;
  const labels = hourTickLabels(data.hours, timeZone);
  // Scans without a zone (check-ins) come without a name: "No zone" in the user's language.
  const zones = data.by_zone.map((z) => ({ ...z, name: z.name === null ? t("noZone") : escapeBidi(z.name) }));
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
        <Stat label={t("allowed")} value={formatCount(allowed, locale)} testId="scans-allowed" />
        <Stat label={t("denied")} value={formatCount(denied, locale)} testId="scans-denied" />
        <Stat
          label={t("denialRate")}
          value={
            allowed + denied
              ? `${((100 * denied) / (allowed + denied)).toLocaleString(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`
              : "—"
          }
        />
      </dl>
      {allowed + denied === 0 && <Empty>{t("noScans")}</Empty>}

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel id="scans-zone-hour" title={t("perZoneHourTitle", { timeZone })}>
          <RecordsNote ctx={data} dayId={data.day.id} />
          <SeriesChart
            label={t("perZoneHour")}
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
        <Panel id="scans-allowed-denied" title={t("allowedDeniedTitle")}>
          <SeriesChart
            label={t("allowedDeniedChart")}
            data={allowedDenied}
            hourly
            legend
            series={[
              { key: "allowed", name: t("allowed"), color: chartColors.allowed, stack: "a" },
              { key: "denied", name: t("denied"), color: chartColors.denied, stack: "a" },
            ]}
          />
        </Panel>
        <Panel id="scans-by-zone" title={t("perZone")}>
          <DataTable
            caption={t("perZoneCaption")}
            hiddenCaption
            columns={[t("zone"), numeric(t("allowed")), numeric(t("denied"))]}
            rows={zones.map((z) => ({ key: z.zone_id, cells: [z.name, z.allowed, z.denied] }))}
          />
        </Panel>
        <Panel id="scans-reasons" title={t("reasonsTitle")}>
          <DataTable
            caption={t("reasonsCaption")}
            hiddenCaption
            empty={<Empty>{t("noDenials")}</Empty>}
            columns={[t("reason"), numeric(t("denied"))]}
            rows={data.denied_by_reason.map((r) => ({ key: r.reason, cells: [value(r.reason), r.count] }))}
          />
        </Panel>
      </div>

      <Panel id="scans-latest-denials" title={t("latestTitle")}>
        <RecordsNote ctx={data} dayId={data.day.id} />
        <DataTable
          caption={t("latestCaption")}
          hiddenCaption
          empty={<Empty>{t("noDenials")}</Empty>}
          columns={[t("when"), t("zone"), t("reason"), t("code"), t("gate")]}
          rows={data.latest_denials.map((d) => ({
            key: d.id,
            cells: [
              time(d.occurred_at),
              d.zone ?? t("noZone"),
              d.reason ? value(d.reason) : "—",
              d.ticket_code ?? "—",
              d.device_id ?? "—",
            ],
          }))}
        />
      </Panel>
    </div>
  );
}
