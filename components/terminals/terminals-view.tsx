"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { textLinkClass } from "@/components/ui/class-names";
import { FreshnessLine } from "@/components/ui/data-age";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Sparkline } from "@/components/ui/sparkline";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { type Station, stations, type TerminalRow, type TerminalsView } from "@/lib/shared/api/attention";
import { endpoints } from "@/lib/shared/api/endpoints";
import { formatMoney } from "@/lib/shared/format/money";
import { formatCount } from "@/lib/shared/format/number";
import { useTimeText } from "../ui/time-text";
import { BurstNote } from "./burst-note";
import { StateBadge } from "./state-badge";

/** Every terminal by station: its state, today's figures, when it last sold and last reached us. */
export function TerminalsScreen() {
  const t = useTranslations("terminals");
  const query = useEndpoint(endpoints.terminals.list, {});
  if (query.isPending) return <Loading what={t("loading")} />;
  if (!query.data) return <ErrorBox error={query.error} />;
  const view = query.data;
  const freshness = (
    <FreshnessLine freshness={view.freshness} timeZone={view.time_zone} refreshFailing={query.isError} />
  );
  if (view.terminals.length === 0)
    return (
      <>
        {freshness}
        <Empty>{t("none")}</Empty>
      </>
    );
  const byStation = (s: Station) => view.terminals.filter((x) => x.station === s);
  return (
    <div className="space-y-4">
      {freshness}
      {query.isError && <ErrorBox error={query.error} />}
      <StateCounts terminals={view.terminals} computedAt={view.computed_at} timeZone={view.time_zone} />
      {stations
        .filter((s) => byStation(s).length > 0)
        .map((s) => (
          <StationPanel key={s} station={s} rows={byStation(s)} view={view} />
        ))}
    </div>
  );
}

function StateCounts({
  terminals,
  computedAt,
  timeZone,
}: {
  terminals: TerminalRow[];
  computedAt: string | null;
  timeZone: string;
}) {
  const t = useTranslations("terminals");
  const time = useTimeText(timeZone);
  const count = (state: TerminalRow["state"]) => terminals.filter((x) => x.state === state).length;
  return (
    <p className="text-sm text-slate-700" data-testid="terminal-counts">
      {t("counts", {
        live: count("live"),
        quiet: count("quiet"),
        late: count("late"),
        back: count("back"),
        idle: count("idle"),
      })}
      {computedAt && (
        <span className="ml-2 text-slate-600">{t("computedAt", { time: time(computedAt) })}</span>
      )}
    </p>
  );
}

function StationPanel({
  station,
  rows,
  view,
}: {
  station: Station;
  rows: TerminalRow[];
  view: TerminalsView;
}) {
  const t = useTranslations("terminals");
  const locale = useIntlLocale();
  const time = useTimeText(view.time_zone);
  const money = (minor: number) => formatMoney(minor, view.currency, locale);
  return (
    <Panel title={t(`station.${station}`)} id={`station-${station}`}>
      <DataTable
        caption={t("caption", { station: t(`station.${station}`) })}
        hiddenCaption
        columns={[
          t("terminal"),
          t("stateColumn"),
          numeric(t("recordsToday")),
          numeric(t("moneyToday")),
          numeric(t("lateShare")),
          t("lastRecord"),
          t("lastArrival"),
          t("lastHours"),
        ]}
        rows={rows.map((r) => ({
          key: r.device_id,
          cells: [
            <Link key="id" className={textLinkClass} href={`/terminals/${encodeURIComponent(r.device_id)}`}>
              <SafeText text={r.device_id} />
            </Link>,
            <div key="state" data-testid={`terminal-${r.device_id}`}>
              <StateBadge state={r.state} />
              <BurstNote burst={r.burst} days={view.days} money={money} />
            </div>,
            formatCount(r.records_today, locale),
            money(r.money_today),
            `${Math.round(r.late_share * 100)} %`,
            r.last_occurred_at ? time(r.last_occurred_at) : "—",
            r.last_created_at ? time(r.last_created_at) : "—",
            <Sparkline
              key="spark"
              values={r.sparkline}
              label={t("sparkline", { values: r.sparkline.join(", ") })}
              className="text-blue-700"
            />,
          ],
        }))}
      />
    </Panel>
  );
}
