"use client";

import { useTranslations } from "next-intl";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import type { TopupInsights } from "@/lib/shared/api/sales";
import { formatCount } from "@/lib/shared/format/number";

/**
 * Top-ups the way organisers read them (issue 13): the average paid top-up, by ticket type, by
 * channel, and the paid balance still unspent at the end of each day (the event's liability).
 */
export function TopupInsightsPanels({
  insights: i,
  money,
}: {
  insights: TopupInsights;
  money: (minor: number) => string;
}) {
  const t = useTranslations("topupInsights");
  const locale = useIntlLocale();
  const count = (n: number) => formatCount(n, locale);
  const share = (x: number | null) =>
    x === null
      ? "—"
      : new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(x);
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Panel id="topups-by-type" title={t("byType")}>
        <dl className="mb-3">
          <Stat label={t("average")} value={money(i.average_topup)} testId="average-topup" />
        </dl>
        <DataTable
          caption={t("byTypeCaption")}
          hiddenCaption
          columns={[t("ticketType"), numeric(t("count")), numeric(t("amount")), numeric(t("averageColumn"))]}
          rows={i.by_ticket_type.map((r) => ({
            key: r.ticket_type ?? "",
            cells: [r.ticket_type ?? t("noTicket"), count(r.count), money(r.amount), money(r.average)],
          }))}
        />
      </Panel>
      <Panel id="topups-by-channel" title={t("byChannel")}>
        <DataTable
          caption={t("byChannelCaption")}
          hiddenCaption
          columns={[t("channel"), numeric(t("count")), numeric(t("amount"))]}
          rows={i.by_channel.map((r) => ({
            key: r.channel,
            cells: [t(`channels.${r.channel}`), count(r.count), money(r.amount)],
          }))}
        />
      </Panel>
      <Panel id="topups-liability" title={t("liability")}>
        <p className="mb-2 text-sm text-slate-600">{t("liabilityNote")}</p>
        <DataTable
          caption={t("liabilityCaption")}
          hiddenCaption
          columns={[t("day"), numeric(t("loaded")), numeric(t("unspent")), numeric(t("share"))]}
          rows={i.liability.map((r) => ({
            key: r.day_id,
            cells:
              r.loaded === null || r.unspent === null
                ? [r.name, t("pendingDay"), "—", "—"]
                : [r.name, money(r.loaded), money(r.unspent), share(r.share)],
          }))}
        />
      </Panel>
    </div>
  );
}
