"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { textLinkClass } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { useTimeText } from "../ui/time-text";

export interface GateScansFilter {
  day_id?: string;
  device_id?: string;
  reason?: string;
  allowed?: "true" | "false";
}

/** The scans behind a figure of the Entries screen: one gate's scans of one reason, newest first. */
export function GateScansScreen({ filter }: { filter: GateScansFilter }) {
  const t = useTranslations("gates");
  const query = useEndpoint(endpoints.gates.scans, { query: filter });
  const time = useTimeText(query.data?.time_zone ?? "UTC");
  if (query.isPending) return <Loading what={t("loadingScans")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  return (
    <div className="space-y-4">
      <Link className={textLinkClass} href="/gates">
        {t("backToEntries")}
      </Link>
      <p className="text-sm">
        {t("scansFilter", { gate: filter.device_id ?? "—", reason: filter.reason ?? "—" })}
      </p>
      <DataTable
        caption={t("scansCaption")}
        columns={[t("occurred"), t("gate"), t("zone"), t("reason"), t("holder")]}
        rows={query.data.scans.map((s) => ({
          key: s.id,
          cells: [
            time(s.occurred_at),
            s.device_id ?? "—",
            s.zone_id ?? "—",
            s.allowed ? t("allowed") : (s.reason ?? "—"),
            s.wristband_id ?? s.ticket_code ?? "—",
          ],
        }))}
        empty={<Empty>{t("noScans")}</Empty>}
      />
    </div>
  );
}
