"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { inputClass, secondaryButtonClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { keyOf, useEndpoint, useWrite } from "@/components/ui/use-endpoint";
import { type Station, stations } from "@/lib/shared/api/attention";
import { endpoints } from "@/lib/shared/api/endpoints";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatMoney } from "@/lib/shared/format/money";
import { useTimeText } from "../ui/time-text";
import { BurstNote } from "./burst-note";
import { StateBadge } from "./state-badge";

/** One terminal: its state, what it is synced up to, its station, its latest records. */
export function TerminalScreen({ device, canManage }: { device: string; canManage: boolean }) {
  const t = useTranslations("terminals");
  const value = useValueText();
  const locale = useIntlLocale();
  const query = useEndpoint(endpoints.terminals.detail, { params: { device } });
  const time = useTimeText(query.data?.time_zone ?? "UTC");
  if (query.isPending) return <Loading what={t("loadingOne")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const view = query.data;
  const money = (minor: number) => formatMoney(minor, view.currency, locale);
  const row = view.terminal;
  return (
    <div className="space-y-4">
      <Panel title={t("now", { device: escapeBidi(view.device_id) })} id="terminal-now">
        {row ? (
          <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-slate-600">{t("stateColumn")}</dt>
              <dd data-testid="terminal-state">
                <StateBadge state={row.state} /> {t("since", { time: time(row.since) })}
                <BurstNote burst={row.burst} days={view.days} money={money} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">{t("syncedUpTo")}</dt>
              <dd>{row.last_occurred_at ? time(row.last_occurred_at) : "—"}</dd>
            </div>
            <div>
              <dt className="text-slate-600">{t("lastArrival")}</dt>
              <dd>{row.last_created_at ? time(row.last_created_at) : "—"}</dd>
            </div>
            <div>
              <dt className="text-slate-600">{t("rhythm")}</dt>
              <dd>
                {row.normal_gap_s === null || row.quiet_after_s === null
                  ? "—"
                  : t("rhythmText", {
                      gap: Math.max(1, Math.round(row.normal_gap_s / 60)),
                      quiet: Math.round(row.quiet_after_s / 60),
                    })}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">{t("stationLabel")}</dt>
              <dd>
                {canManage ? (
                  <StationPicker device={device} station={row.station} overridden={row.station_overridden} />
                ) : (
                  t(`station.${row.station}`)
                )}
              </dd>
            </div>
          </dl>
        ) : (
          <Empty plain>{t("noState")}</Empty>
        )}
      </Panel>
      <Panel title={t("records")} id="terminal-records">
        <DataTable
          caption={t("recordsCaption")}
          hiddenCaption
          empty={<Empty plain>{t("noRecords")}</Empty>}
          columns={[t("kind"), t("occurred"), t("arrived"), numeric(t("amount")), t("status"), t("night")]}
          rows={view.records.map((r) => ({
            key: `${r.kind}-${r.id}`,
            className: r.late ? "bg-amber-50" : undefined,
            cells: [
              t(`recordKind.${r.kind}`),
              time(r.occurred_at),
              r.late ? t("lateArrival", { time: time(r.created_at) }) : time(r.created_at),
              r.amount === null ? "—" : money(r.amount),
              value(r.status),
              view.days.find((d) => d.id === r.day_id)?.name ?? r.day_id,
            ],
          }))}
        />
      </Panel>
    </div>
  );
}

/** A manager chooses the station; "from the device id" clears the choice. */
function StationPicker({
  device,
  station,
  overridden,
}: {
  device: string;
  station: Station;
  overridden: boolean;
}) {
  const t = useTranslations("terminals");
  const client = useQueryClient();
  const [choice, setChoice] = useState<string>(overridden ? station : "");
  const save = useWrite(endpoints.terminals.station, {
    onSuccess: (data) => {
      client.setQueryData(keyOf(endpoints.terminals.detail, { params: { device } }), data);
      void client.invalidateQueries({ queryKey: keyOf(endpoints.terminals.list) });
    },
  });
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ params: { device }, body: { station: choice === "" ? null : (choice as Station) } });
      }}
    >
      <label className="sr-only" htmlFor="station">
        {t("stationLabel")}
      </label>
      <select id="station" className={inputClass} value={choice} onChange={(e) => setChoice(e.target.value)}>
        <option value="">{t("fromDeviceId", { station: t(`station.${station}`) })}</option>
        {stations.map((s) => (
          <option key={s} value={s}>
            {t(`station.${s}`)}
          </option>
        ))}
      </select>
      <button type="submit" className={secondaryButtonClass} disabled={save.isPending}>
        {t("saveStation")}
      </button>
      {save.isSuccess && <span role="status">{t("stationSaved")}</span>}
      <ErrorBox error={save.error} />
    </form>
  );
}
