"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { paletteColor, SeriesChart } from "@/components/ui/chart-frame";
import { inputClass, textLinkClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { EntriesView } from "@/lib/shared/api/gates";
import { formatCount } from "@/lib/shared/format/number";
import { useTimeText } from "../ui/time-text";
import { CapacityGauge } from "./capacity-gauge";
import { RulesSettings } from "./rules-settings";

const NO_ZONE = "";
/** The chart's two views (their message keys). */
const CHART_VIEWS = ["byZone", "byGate"] as const;

/** "HH:mm" of a 5-minute bucket in the event's time zone. */
function bucketLabel(iso: string, timeZone: string, locale: string) {
  return new Date(iso).toLocaleTimeString(locale, { timeZone, hour: "2-digit", minute: "2-digit" });
}

/** The Entries screen: who came in, where and when, against capacity; the denials behind the doors. */
export function EntriesScreen({ canManage }: { canManage: boolean }) {
  const t = useTranslations("gates");
  const locale = useIntlLocale();
  const [dayId, setDayId] = useState<string | undefined>(undefined);
  const query = useEndpoint(endpoints.gates.entries, { query: dayId ? { day_id: dayId } : {} });
  const time = useTimeText(query.data?.time_zone ?? "UTC");
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const view = query.data;
  if (!view.day) return <Empty>{t("noDays")}</Empty>;
  const zoneName = (id: string) =>
    id === NO_ZONE ? t("checkIns") : (view.zones.find((z) => z.zone_id === id)?.name ?? id);
  const count = (n: number) => formatCount(n, locale);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor="gates-day" className="text-sm font-medium">
          {t("day")}
        </label>
        <select
          id="gates-day"
          className={inputClass}
          value={view.day.id}
          onChange={(e) => setDayId(e.target.value)}
        >
          {view.days.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
        <span className="text-xs text-slate-500">{t("computedAt", { time: time(view.computed_at) })}</span>
      </div>
      <p className="rounded border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="no-exits-note">
        {t("noExits")}
      </p>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label={t("uniqueHolders")} value={count(view.unique.holders)} testId="unique-holders" />
        <Stat label={t("uniqueWristbands")} value={count(view.unique.wristbands)} />
        <Stat label={t("uniqueTickets")} value={count(view.unique.tickets)} />
        <Stat
          label={t("entries15")}
          value={count(view.zones.reduce((n, z) => n + z.entries_15_min, 0))}
          hint={t("entries15Hint")}
        />
      </dl>
      <Panel title={t("capacityHeading")}>
        <p className="mb-3 text-xs text-slate-500">
          {t("capacityHow", { thresholds: view.thresholds.join(" / ") })}
        </p>
        <ul className="grid gap-3 md:grid-cols-2" data-testid="gates-zones">
          {view.zones.map((z) => (
            <CapacityGauge key={z.zone_id} zone={z} thresholds={view.thresholds} canManage={canManage} />
          ))}
        </ul>
      </Panel>
      <EntriesChart view={view} zoneName={zoneName} />
      <Panel title={t("gatesHeading")}>
        <DataTable
          caption={t("gatesCaption")}
          hiddenCaption
          columns={[t("gate"), t("zone"), numeric(t("entriesToday")), numeric(t("entries15"))]}
          rows={view.gates.map((g) => ({
            key: `${g.device_id}|${g.zone_id}`,
            cells: [g.device_id, zoneName(g.zone_id), count(g.entries_today), count(g.entries_15_min)],
          }))}
          empty={<Empty>{t("noEntries")}</Empty>}
        />
      </Panel>
      <Panel title={t("showHeading")}>
        <p className="mb-3 text-xs text-slate-500">{t("showHow")}</p>
        <DataTable
          caption={t("showCaption")}
          hiddenCaption
          columns={[
            t("ticketType"),
            numeric(t("valid")),
            numeric(t("entered")),
            numeric(t("noShows")),
            numeric(t("showRate")),
          ]}
          rows={view.show_rates.map((r) => ({
            key: r.ticket_type_id,
            cells: [
              r.name,
              count(r.valid),
              count(r.entered),
              count(r.no_shows),
              r.show_rate === null
                ? "—"
                : `${(100 * r.show_rate).toLocaleString(locale, { maximumFractionDigits: 1 })} %`,
            ],
          }))}
          empty={<Empty>{t("noTickets")}</Empty>}
        />
      </Panel>
      <Panel title={t("deniedHeading")}>
        <DataTable
          caption={t("deniedCaption")}
          hiddenCaption
          columns={[t("reason"), t("gate"), t("zone"), numeric(t("denied")), t("lastAt")]}
          rows={view.denied.map((d) => {
            const q = new URLSearchParams({
              day_id: view.day!.id,
              device_id: d.device_id,
              reason: d.reason,
              allowed: "false",
            });
            return {
              key: `${d.reason}|${d.device_id}|${d.zone_id}`,
              cells: [
                <Link key="r" className={textLinkClass} href={`/gates/scans?${q}`}>
                  {t.has(`reasons.${d.reason}`) ? t(`reasons.${d.reason}`) : d.reason || "—"}
                </Link>,
                d.device_id || "—",
                zoneName(d.zone_id),
                count(d.count),
                time(d.last_at),
              ],
            };
          })}
          empty={<Empty>{t("noDenied")}</Empty>}
        />
      </Panel>
      {canManage && <RulesSettings />}
    </div>
  );
}

/** Entries per 5 minutes of the day, stacked by zone (check-ins apart); the same figures by gate below. */
function EntriesChart({ view, zoneName }: { view: EntriesView; zoneName: (id: string) => string }) {
  const t = useTranslations("gates");
  const locale = useIntlLocale();
  const [by, setBy] = useState<"byZone" | "byGate">("byZone");
  const keyOf = (b: EntriesView["buckets"][number]) => (by === "byZone" ? b.zone_id : b.device_id);
  const keys = [...new Set(view.buckets.map(keyOf))].sort();
  const times = [...new Set(view.buckets.map((b) => b.bucket))].sort();
  const data = times.map((bucket) => ({
    label: bucketLabel(bucket, view.time_zone, locale),
    ...Object.fromEntries(
      keys.map((k, i) => [
        `s${i}`,
        view.buckets.filter((b) => b.bucket === bucket && keyOf(b) === k).reduce((n, b) => n + b.entries, 0),
      ]),
    ),
  }));
  return (
    <Panel title={t("chartHeading")}>
      <div className="mb-2 flex gap-3 text-sm" role="radiogroup" aria-label={t("chartBy")}>
        {CHART_VIEWS.map((v) => (
          <label key={v} className="flex items-center gap-1">
            <input type="radio" name="entries-by" checked={by === v} onChange={() => setBy(v)} />
            {t(v)}
          </label>
        ))}
      </div>
      {data.length === 0 ? (
        <Empty>{t("noEntries")}</Empty>
      ) : (
        <SeriesChart
          label={t("chartLabel")}
          data={data}
          legend
          hourly
          series={keys.map((k, i) => ({
            key: `s${i}`,
            name: by === "byZone" ? zoneName(k) : k || "—",
            color: paletteColor(i),
            stack: "entries",
          }))}
        />
      )}
    </Panel>
  );
}
