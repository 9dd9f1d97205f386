"use client";

import { useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/ui/data-table";
import { Field, Fields } from "@/components/ui/fields";
import { Panel } from "@/components/ui/panel";
import { ErrorBox, Loading } from "@/components/ui/states";
import { fetchJson } from "@/lib/shared/api/client";
import { ConnectionReport } from "@/lib/shared/api/connection";
import { timeOfDay } from "@/lib/shared/format/time";

export function ConnectionView() {
  const query = useQuery({
    queryKey: ["connection"],
    queryFn: () => fetchJson("/api/connection", ConnectionReport),
  });
  if (query.isPending) return <Loading what="the connection" />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { ping, pingError, sync, upstream, timeZone } = query.data;
  const quota = query.data.quota ?? sync.quota;
  const time = (at: string | Date | null) => (at ? timeOfDay(at, timeZone) : "—");
  return (
    <div className="space-y-6">
      <Panel id="key-heading" title="Integration API key">
        <p className="text-sm text-slate-600">Upstream: {upstream}</p>
        {pingError && (
          <p role="alert" className="mt-2 rounded bg-red-50 p-2 text-red-800">
            The key does not work: {pingError.code} — {pingError.message}
            {pingError.request_id && <span> (request {pingError.request_id})</span>}
          </p>
        )}
        {ping && (
          <Fields className="mt-2">
            <Field label="Environment">
              <span
                data-testid="environment-badge"
                className={`rounded px-2 py-0.5 text-xs font-semibold uppercase ${ping.environment === "live" ? "bg-green-700 text-white" : "bg-amber-200 text-amber-950"}`}
              >
                {ping.environment}
              </span>
            </Field>
            <Field label="Event">{ping.event.name}</Field>
            <Field label="Key">{ping.key.name}</Field>
            <Field label="Scopes">
              <ul aria-label="Scopes" className="flex flex-wrap gap-1">
                {ping.key.scopes.map((s) => (
                  <li key={s} className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs">
                    {s}
                  </li>
                ))}
              </ul>
            </Field>
            <Field label="Restrictions">
              {ping.key.restrictions.ticket_type_ids.length || ping.key.restrictions.day_ids.length
                ? `ticket types: ${ping.key.restrictions.ticket_type_ids.join(", ") || "all"}; days: ${ping.key.restrictions.day_ids.join(", ") || "all"}`
                : "none (the whole event)"}
            </Field>
            <Field label="Rate limits">
              read {ping.key.rate_limits.read}/min · write {ping.key.rate_limits.write}/min · check-in{" "}
              {ping.key.rate_limits.checkin}/min · access {ping.key.rate_limits.access}/min
            </Field>
            <Field label="Read quota now">
              {quota
                ? `${quota.remaining} of ${quota.limit} left, resets ${time(quota.resetAt)}`
                : "not observed yet"}
            </Field>
          </Fields>
        )}
      </Panel>

      <Panel id="sync-heading" title={`Sync ${sync.healthy ? "— healthy" : "— needs attention"}`}>
        <p className="mb-2 text-sm text-slate-600">
          {sync.worker
            ? `Worker ${sync.worker.instance}: ${sync.worker.cycles} cycles, last finished ${time(sync.worker.lastCycleFinishedAt)}${sync.worker.stale ? " (no heartbeat: stale)" : ""}`
            : "No sync worker has run on this store yet."}
        </p>
        <DataTable
          caption="Sync status per resource"
          hiddenCaption
          rowHeaders
          columns={["Resource", "Last success", "Lag", "Requests", "Records", "Last error"]}
          rows={sync.resources.map((r) => ({
            key: r.resource,
            cells: [
              r.resource,
              time(r.lastSuccessAt),
              r.lagSeconds === null ? "—" : `${Math.round(r.lagSeconds)} s`,
              r.requestsUsed,
              r.recordsSynced,
              <span key="error" className={r.failing ? "text-red-800" : "text-slate-600"}>
                {r.lastError
                  ? `${r.lastError.code ?? ""} ${r.lastError.message}${r.lastError.requestId ? ` (request ${r.lastError.requestId})` : ""}`
                  : "—"}
              </span>,
            ],
          }))}
        />
      </Panel>

      <Panel id="errors-heading" title="Latest upstream errors">
        {sync.errors.length === 0 ? (
          <p className="text-sm text-slate-600">None.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {sync.errors.map((e) => (
              <li key={`${e.at}-${e.resource}-${e.requestId}`}>
                {time(e.at)} · {e.resource} · {e.status ?? "—"} {e.code}: {e.message}
                {e.requestId && <span className="font-mono"> (request {e.requestId})</span>}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
