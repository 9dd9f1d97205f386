"use client";

import { useTranslations } from "next-intl";
import { DataTable } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { dayShare, ProgressBar, useEtaText } from "@/components/ui/mirror-status";
import { Panel } from "@/components/ui/panel";
import { useResourceNames } from "@/components/ui/resource-names";
import type { MirrorProgress } from "@/lib/shared/api/sales";
import { formatCount } from "@/lib/shared/format/number";

/**
 * The Connection screen's view of the first mirror: what each resource is doing (walking which day,
 * following its tail, waiting its turn), records and requests, time left, and each day's progress
 * with where its figures come from.
 */
export function MirrorPanel({
  mirror,
  time,
}: {
  mirror: MirrorProgress;
  time: (at: string | null) => string;
}) {
  const t = useTranslations("connectionMirror");
  const tm = useTranslations("mirror");
  const resources = useResourceNames();
  const locale = useIntlLocale();
  const eta = useEtaText();
  const dayName = (id: string | null) => mirror.days.find((d) => d.day_id === id)?.name ?? "—";
  const stateText = (r: MirrorProgress["resources"][number]) =>
    r.state === "backfilling"
      ? t("backfilling", { day: dayName(r.day_id) })
      : r.state === "waiting"
        ? t("waiting", { day: dayName(r.day_id) })
        : r.days
          ? t("following")
          : t("followingNoPlan");
  return (
    <Panel id="mirror-heading" title={t("title")}>
      <p className="mb-2 text-sm text-slate-700" data-testid="mirror-state">
        {mirror.state === "starting"
          ? tm("starting")
          : mirror.state === "backfilling"
            ? t("stateBackfilling")
            : t("stateFollowing")}
        {mirror.eta_seconds !== null && <span className="ml-2">{eta(mirror.eta_seconds)}</span>}
        {mirror.paused_until && (
          <span className="ml-2">{tm("pausedQuota", { time: time(mirror.paused_until) })}</span>
        )}
      </p>
      <DataTable
        caption={t("resourcesCaption")}
        hiddenCaption
        rowHeaders
        columns={[t("resource"), t("state"), t("daysWalked"), t("records"), t("requests")]}
        rows={mirror.resources.map((r) => ({
          key: r.resource,
          cells: [
            resources.name(r.resource),
            stateText(r),
            r.days ? t("daysOf", { walked: r.days_walked, days: r.days }) : "—",
            formatCount(r.records, locale),
            formatCount(r.requests, locale),
          ],
        }))}
      />
      <DataTable
        caption={t("daysCaption")}
        columns={[t("day"), t("figures"), t("mirrored"), t("progress")]}
        rows={mirror.days.map((d) => {
          const share = dayShare(d);
          return {
            key: d.day_id,
            cells: [
              d.name,
              d.source === "summary" ? tm("fromSummary") : tm("fromMirror"),
              d.expected === null
                ? formatCount(d.records, locale)
                : t("recordsOf", {
                    records: formatCount(d.records, locale),
                    expected: formatCount(d.expected, locale),
                  }),
              share === null ? (
                "—"
              ) : (
                <ProgressBar key="bar" share={share} label={tm("progressLabel", { day: d.name })} />
              ),
            ],
          };
        })}
      />
    </Panel>
  );
}
