"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { textLinkClass } from "@/components/ui/class-names";
import { FreshnessLine } from "@/components/ui/data-age";
import { InlineTextForm } from "@/components/ui/inline-text-form";
import { useIntlLocale } from "@/components/ui/locale-format";
import { useResourceNames } from "@/components/ui/resource-names";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { keyOf, useEndpoint, useWrite } from "@/components/ui/use-endpoint";
import type { Alert, AlertFigures, AlertsView } from "@/lib/shared/api/attention";
import { endpoints } from "@/lib/shared/api/endpoints";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatMoney } from "@/lib/shared/format/money";
import { DeliveryLog } from "../notify";
import { useTimeText } from "../ui/time-text";
import { SeverityBadge } from "./severity-badge";

/** Figures that are money (minor units) or instants: shown as such in an alert's words. */
const MONEY = new Set([
  "sales_delta",
  "topups_delta",
  "withdrawals_delta",
  "upstream_total",
  "mirror_total",
  "lowest",
  "amount",
  "balance",
  "offline_amount",
]);
const INSTANTS = new Set(["signed_at", "paused_until"]);
/** Figures an alert raised before they were recorded lacks: their sentence reads as it did then. */
const EARLIER_FIGURES: AlertFigures = { normal_from: "today" };

/** An alert's figures as the values of its sentence. */
function useFigureValues(view: AlertsView) {
  const locale = useIntlLocale();
  const time = useTimeText(view.time_zone);
  return (figures: AlertFigures) =>
    Object.fromEntries(
      Object.entries({ ...EARLIER_FIGURES, ...figures }).map(([k, v]) => {
        if (v === null) return [k, "—"];
        if (MONEY.has(k) && typeof v === "number") return [k, formatMoney(v, view.currency, locale)];
        if (INSTANTS.has(k) && typeof v === "string") return [k, time(v)];
        if (k === "day_id" && typeof v === "string") return [k, view.days.find((d) => d.id === v)?.name ?? v];
        // Text of the data (a device id, a resource) cannot reorder the sentence it is put in.
        return [k, typeof v === "string" ? escapeBidi(v) : v];
      }),
    );
}

/**
 * What an alert is about, next to its title: a terminal, a night (by name), a resource, the whole
 * event; nothing where the title says it all (the review queue, the wristbands, the worker, the quota).
 */
function useSubjectText(view: AlertsView) {
  const t = useTranslations("alerts");
  const resources = useResourceNames();
  return (alert: Alert): string | null => {
    if (alert.subject === "*") return t("overall");
    switch (alert.kind) {
      case "terminal_quiet":
      case "terminal_late":
      case "refund_spike":
        return alert.subject;
      case "signed_night_moved":
      case "night_mismatch":
        return view.days.find((d) => d.id === alert.subject)?.name ?? alert.subject;
      case "sync_failing":
        return resources.name(alert.subject);
      default:
        return null;
    }
  };
}

/** Open alerts first, then the history; each with its figures, a link that explains it and its acknowledgement. */
export function AlertsScreen({ canAcknowledge, only }: { canAcknowledge: boolean; only?: string }) {
  const t = useTranslations("alerts");
  // `only`: one alert (a message's acknowledgement link opens it), read by its id.
  const query = useEndpoint(endpoints.alerts.list, { query: only === undefined ? {} : { alert: only } });
  if (query.isPending) return <Loading what={t("loading")} />;
  if (!query.data) return <ErrorBox error={query.error} />;
  const view = query.data;
  const open = view.alerts.filter((a) => a.state === "open");
  const history = view.alerts.filter((a) => a.state === "resolved");
  // The list holds the newest alerts: the heading counts all open ones, and says when some are not listed.
  const openCount = only === undefined ? view.open : open.length;
  return (
    <div className="space-y-6">
      <div>
        <FreshnessLine freshness={view.freshness} timeZone={view.time_zone} refreshFailing={query.isError} />
        {query.isError && <ErrorBox error={query.error} />}
      </div>
      <section aria-labelledby="alerts-open">
        <h2 id="alerts-open" className="mb-2 font-semibold">
          {t("openHeading", { count: openCount })}
        </h2>
        {open.length < openCount && (
          <p className="mb-2 text-sm text-slate-700" data-testid="open-not-listed">
            {t("openListed", { shown: open.length, count: openCount })}
          </p>
        )}
        {open.length === 0 ? (
          <Empty>{t("noneOpen")}</Empty>
        ) : (
          <ul className="space-y-3">
            {open.map((a) => (
              <AlertCard key={a.id} alert={a} view={view} canAcknowledge={canAcknowledge} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="alerts-history">
        <h2 id="alerts-history" className="mb-2 font-semibold">
          {t("historyHeading")}
        </h2>
        {history.length === 0 ? (
          <Empty>{t("noHistory")}</Empty>
        ) : (
          <ul className="space-y-3">
            {history.map((a) => (
              <AlertCard key={a.id} alert={a} view={view} canAcknowledge={false} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function AlertCard({
  alert,
  view,
  canAcknowledge,
}: {
  alert: Alert;
  view: AlertsView;
  canAcknowledge: boolean;
}) {
  const t = useTranslations("alerts");
  const time = useTimeText(view.time_zone);
  const values = useFigureValues(view);
  const subject = useSubjectText(view);
  return (
    <li
      data-testid={`alert-${alert.kind}-${alert.subject}`}
      data-state={alert.state}
      className="rounded border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-center gap-2">
        <SeverityBadge severity={alert.severity} />
        <h3 className="font-medium">{t(`kind.${alert.kind}`)}</h3>
        {subject(alert) && (
          <span className="text-sm text-slate-600">
            <SafeText text={subject(alert)} />
          </span>
        )}
      </div>
      <p className="mt-1 text-sm">{t(`detail.${alert.kind}`, values(alert.figures))}</p>
      <p className="mt-1 text-xs text-slate-600">
        {t("seen", { first: time(alert.first_seen), last: time(alert.last_seen) })}
        {alert.resolved_at && <> · {t("resolvedAt", { time: time(alert.resolved_at) })}</>}
      </p>
      <p className="mt-1 text-sm">
        <Link className={textLinkClass} href={alert.link}>
          {t("explain")}
        </Link>
      </p>
      {alert.acknowledged_by ? (
        <p className="mt-2 text-sm text-slate-700 [overflow-wrap:anywhere]" data-testid="acknowledged">
          {t("acknowledged", {
            who: escapeBidi(alert.acknowledged_by),
            time: time(alert.acknowledged_at ?? alert.last_seen),
            comment: alert.ack_comment ? escapeBidi(alert.ack_comment) : "—",
          })}
        </p>
      ) : (
        canAcknowledge && <AcknowledgeForm alert={alert} />
      )}
      <DeliveryLog alertId={alert.id} timeZone={view.time_zone} />
    </li>
  );
}

function AcknowledgeForm({ alert }: { alert: Alert }) {
  const t = useTranslations("alerts");
  const client = useQueryClient();
  const ack = useWrite(endpoints.alerts.acknowledge, {
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keyOf(endpoints.alerts.list) });
      void client.invalidateQueries({ queryKey: keyOf(endpoints.alerts.count) });
    },
  });
  return (
    <InlineTextForm
      id={`ack-${alert.id}`}
      label={t("comment")}
      submitLabel={t("acknowledge")}
      pending={ack.isPending}
      error={ack.error}
      onSubmit={(comment) => ack.mutate({ params: { id: alert.id }, body: { comment } })}
    />
  );
}
