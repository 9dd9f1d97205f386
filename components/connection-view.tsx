"use client";

import { useTranslations } from "next-intl";
import { DataTable } from "@/components/ui/data-table";
import { Field, Fields } from "@/components/ui/fields";
import { Panel } from "@/components/ui/panel";
import { useResourceNames } from "@/components/ui/resource-names";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { timeOfDay } from "@/lib/shared/format/time";
import { MirrorPanel } from "./connection-mirror";

export function ConnectionView() {
  const t = useTranslations("connection");
  const resources = useResourceNames();
  const query = useEndpoint(endpoints.connection.report, {});
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { ping, pingError, sync, upstream, timeZone } = query.data;
  const quota = query.data.quota ?? sync.quota;
  const time = (at: string | Date | null) => (at ? timeOfDay(at, timeZone) : "—");
  return (
    <div className="space-y-6">
      <Panel id="key-heading" title={t("keyTitle")}>
        <p className="text-sm text-slate-600">{t("upstream", { url: upstream })}</p>
        {pingError && (
          <p role="alert" className="mt-2 rounded bg-red-50 p-2 text-red-800">
            {t("keyFails", { code: pingError.code, message: pingError.message })}
            {pingError.request_id && <span>{t("request", { id: pingError.request_id })}</span>}
          </p>
        )}
        {ping && (
          <Fields className="mt-2">
            <Field label={t("environment")}>
              <span
                data-testid="environment-badge"
                className={`rounded px-2 py-0.5 text-xs font-semibold uppercase ${ping.environment === "live" ? "bg-green-700 text-white" : "bg-amber-200 text-amber-950"}`}
              >
                {ping.environment}
              </span>
            </Field>
            <Field label={t("event")}>
              <SafeText text={ping.event.name} />
            </Field>
            <Field label={t("key")}>
              <SafeText text={ping.key.name} />
            </Field>
            <Field label={t("scopes")}>
              <ul aria-label={t("scopes")} className="flex flex-wrap gap-1">
                {ping.key.scopes.map((s) => (
                  <li key={s} className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs">
                    {s}
                  </li>
                ))}
              </ul>
            </Field>
            <Field label={t("restrictions")}>
              {ping.key.restrictions.ticket_type_ids.length || ping.key.restrictions.day_ids.length
                ? t("restricted", {
                    types: ping.key.restrictions.ticket_type_ids.join(", ") || t("all"),
                    days: ping.key.restrictions.day_ids.join(", ") || t("all"),
                  })
                : t("unrestricted")}
            </Field>
            <Field label={t("rateLimits")}>{t("rateLimitsValue", { ...ping.key.rate_limits })}</Field>
            <Field label={t("quota")}>
              {quota
                ? t("quotaValue", {
                    remaining: quota.remaining,
                    limit: quota.limit,
                    time: time(quota.resetAt),
                  })
                : t("quotaUnknown")}
            </Field>
          </Fields>
        )}
      </Panel>

      <Panel id="sync-heading" title={sync.healthy ? t("syncHealthy") : t("syncAttention")}>
        <p className="mb-2 text-sm text-slate-600">
          {sync.worker
            ? t("worker", {
                instance: sync.worker.instance,
                cycles: sync.worker.cycles,
                time: time(sync.worker.lastCycleFinishedAt),
              }) + (sync.worker.stale ? t("stale") : "")
            : t("noWorker")}
        </p>
        <DataTable
          caption={t("syncCaption")}
          hiddenCaption
          rowHeaders
          columns={[t("resource"), t("lastSuccess"), t("lag"), t("requests"), t("records"), t("lastError")]}
          rows={sync.resources.map((r) => ({
            key: r.resource,
            cells: [
              resources.name(r.resource),
              time(r.lastSuccessAt),
              r.lagSeconds === null ? "—" : `${Math.round(r.lagSeconds)} s`,
              r.requestsUsed,
              r.recordsSynced,
              <span key="error" className={r.failing ? "text-red-800" : "text-slate-600"}>
                {r.lastError
                  ? `${r.lastError.code ?? ""} ${r.lastError.message}${r.lastError.requestId ? t("request", { id: r.lastError.requestId }) : ""}`
                  : "—"}
              </span>,
            ],
          }))}
        />
      </Panel>

      <MirrorPanel mirror={sync.mirror} time={time} />

      <Panel id="errors-heading" title={t("errorsTitle")}>
        {sync.errors.length === 0 ? (
          <p className="text-sm text-slate-600">{t("none")}</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {sync.errors.map((e) => (
              <li key={`${e.at}-${e.resource}-${e.requestId}`} className="[overflow-wrap:anywhere]">
                {time(e.at)} · {resources.name(e.resource)} · {e.status ?? "—"} {e.code}:{" "}
                <SafeText text={e.message} />
                {e.requestId && <span className="font-mono">{t("request", { id: e.requestId })}</span>}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
