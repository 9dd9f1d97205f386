"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { DataTable, numeric } from "@/components/ui/data-table";
import { formatCount } from "@/lib/shared/format/number";
import { useIntlLocale } from "./locale-format";

/**
 * Tables that the live screens and the night view both show: a count and a total per method,
 * terminal or product; late arrivals per terminal; top-ups against withdrawals; sales by hour.
 */

type Money = (minor: number) => string;

/** Name, count and money total per row; `labels` names the three columns. */
export function CountAndTotalTable({
  caption,
  labels,
  rows,
  money,
  scrollClassName,
  empty,
}: {
  caption: string;
  labels: [name: string, count: string, total: string];
  rows: { key: string; name: string; count: number; total: number }[];
  money: Money;
  scrollClassName?: string;
  empty?: ReactNode;
}) {
  const locale = useIntlLocale();
  return (
    <DataTable
      caption={caption}
      hiddenCaption
      scrollClassName={scrollClassName}
      empty={empty}
      columns={[labels[0], numeric(labels[1]), numeric(labels[2])]}
      rows={rows.map((r) => ({ key: r.key, cells: [r.name, formatCount(r.count, locale), money(r.total)] }))}
    />
  );
}

/** Records that reached the server late, per terminal, with the latest arrival (`at`: its time). */
export function LateByTerminalTable({
  caption,
  countLabel,
  rows,
  money,
  at,
}: {
  caption: string;
  countLabel: string;
  rows: { device_id: string; count: number; amount: number; latest_created_at: string | null }[];
  money: Money;
  at: (iso: string) => string;
}) {
  const t = useTranslations("report");
  const locale = useIntlLocale();
  return (
    <DataTable
      caption={caption}
      hiddenCaption
      columns={[t("terminal"), numeric(countLabel), numeric(t("amount")), t("latestArrival")]}
      rows={rows.map((d) => ({
        key: d.device_id,
        cells: [
          d.device_id || t("unknown"),
          formatCount(d.count, locale),
          money(d.amount),
          d.latest_created_at ? at(d.latest_created_at) : "—",
        ],
      }))}
    />
  );
}

/** Top-ups against withdrawals per day, method or nature; with `withRecords`, how many records too. */
export function FlowsTable({
  caption,
  nameLabel,
  rows,
  money,
  withRecords = false,
  empty,
}: {
  caption: string;
  nameLabel: string;
  rows: { key: string; name: string; topups: number; withdrawals: number; count?: number }[];
  money: Money;
  withRecords?: boolean;
  empty?: ReactNode;
}) {
  const t = useTranslations("report");
  const locale = useIntlLocale();
  return (
    <DataTable
      caption={caption}
      hiddenCaption
      empty={empty}
      columns={[
        nameLabel,
        ...(withRecords ? [numeric(t("records"))] : []),
        numeric(t("topups")),
        numeric(t("withdrawals")),
      ]}
      rows={rows.map((r) => ({
        key: r.key,
        cells: [
          r.name,
          ...(withRecords ? [formatCount(r.count ?? 0, locale)] : []),
          money(r.topups),
          money(r.withdrawals),
        ],
      }))}
    />
  );
}

/**
 * Sales by hour (the chart's figures), folded under "Table of sales by hour"; with `previousLabel`,
 * the previous day's total of each hour too.
 */
export function HourlySalesTable({
  labels,
  hours,
  money,
  previousLabel,
}: {
  labels: string[];
  hours: { hour: string; total: number; count: number; previous_total?: number | null }[];
  money: Money;
  previousLabel?: string;
}) {
  const t = useTranslations("report");
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer">{t("tableByHour")}</summary>
      <DataTable
        caption={t("salesByHour")}
        hiddenCaption
        columns={[
          t("hour"),
          numeric(t("sales")),
          numeric(t("count")),
          ...(previousLabel ? [numeric(previousLabel)] : []),
        ]}
        rows={hours.map((h, i) => ({
          key: h.hour,
          cells: [
            labels[i],
            money(h.total),
            h.count,
            ...(previousLabel ? [h.previous_total == null ? "—" : money(h.previous_total)] : []),
          ],
        }))}
      />
    </details>
  );
}
