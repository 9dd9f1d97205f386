"use client";

import { useQuery } from "@tanstack/react-query";
import type { ConnectionReport } from "@/lib/bff/connection";
import { BffError, fetchJson } from "@/lib/bff/fetch-json";
import { ScrollRegion } from "./scroll-region";

function ErrorBox({ error }: { error: unknown }) {
  const e = error instanceof BffError ? error : null;
  return (
    <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-red-800">
      {e ? e.message : "The console cannot be reached."}
      {e?.requestId && <span className="ml-2 text-sm">(request {e.requestId})</span>}
    </p>
  );
}

export function ConnectionView() {
  const query = useQuery({
    queryKey: ["connection"],
    queryFn: () => fetchJson<ConnectionReport>("/api/connection"),
  });
  if (query.isPending) return <p aria-busy="true">Loading the connection…</p>;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { ping, pingError, quota, sync, upstream, timeZone } = query.data;
  const time = (at: string | Date | null) =>
    at ? new Date(at).toLocaleTimeString("en-GB", { timeZone, hour12: false }) : "—";
  return (
    <div className="space-y-6">
      <section aria-labelledby="key-heading" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="key-heading" className="mb-2 font-semibold">
          Integration API key
        </h2>
        <p className="text-sm text-slate-600">Upstream: {upstream}</p>
        {pingError && (
          <p role="alert" className="mt-2 rounded bg-red-50 p-2 text-red-800">
            The key does not work: {pingError.code} — {pingError.message}
            {pingError.request_id && <span> (request {pingError.request_id})</span>}
          </p>
        )}
        {ping && (
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-medium">Environment</dt>
            <dd>
              <span
                data-testid="environment-badge"
                className={`rounded px-2 py-0.5 text-xs font-semibold uppercase ${ping.environment === "live" ? "bg-green-700 text-white" : "bg-amber-200 text-amber-950"}`}
              >
                {ping.environment}
              </span>
            </dd>
            <dt className="font-medium">Event</dt>
            <dd>{ping.event.name}</dd>
            <dt className="font-medium">Key</dt>
            <dd>{ping.key.name}</dd>
            <dt className="font-medium">Scopes</dt>
            <dd>
              <ul aria-label="Scopes" className="flex flex-wrap gap-1">
                {ping.key.scopes.map((s) => (
                  <li key={s} className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs">
                    {s}
                  </li>
                ))}
              </ul>
            </dd>
            <dt className="font-medium">Restrictions</dt>
            <dd>
              {ping.key.restrictions.ticket_type_ids.length || ping.key.restrictions.day_ids.length
                ? `ticket types: ${ping.key.restrictions.ticket_type_ids.join(", ") || "all"}; days: ${ping.key.restrictions.day_ids.join(", ") || "all"}`
                : "none (the whole event)"}
            </dd>
            <dt className="font-medium">Rate limits</dt>
            <dd>
              read {ping.key.rate_limits.read}/min · write {ping.key.rate_limits.write}/min · check-in{" "}
              {ping.key.rate_limits.checkin}/min · access {ping.key.rate_limits.access}/min
            </dd>
            <dt className="font-medium">Read quota now</dt>
            <dd>
              {(quota ?? sync.quota)
                ? `${(quota ?? sync.quota)!.remaining} of ${(quota ?? sync.quota)!.limit} left, resets ${time((quota ?? sync.quota)!.resetAt)}`
                : "not observed yet"}
            </dd>
          </dl>
        )}
      </section>

      <section aria-labelledby="sync-heading" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="sync-heading" className="mb-2 font-semibold">
          Sync {sync.healthy ? "— healthy" : "— needs attention"}
        </h2>
        <p className="mb-2 text-sm text-slate-600">
          {sync.worker
            ? `Worker ${sync.worker.instance}: ${sync.worker.cycles} cycles, last finished ${time(sync.worker.lastCycleFinishedAt)}${sync.worker.stale ? " (no heartbeat: stale)" : ""}`
            : "No sync worker has run on this store yet."}
        </p>
        <ScrollRegion label="Sync status per resource">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Sync status per resource</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-1 pr-3">
                  Resource
                </th>
                <th scope="col" className="py-1 pr-3">
                  Last success
                </th>
                <th scope="col" className="py-1 pr-3">
                  Lag
                </th>
                <th scope="col" className="py-1 pr-3">
                  Requests
                </th>
                <th scope="col" className="py-1 pr-3">
                  Records
                </th>
                <th scope="col" className="py-1">
                  Last error
                </th>
              </tr>
            </thead>
            <tbody>
              {sync.resources.map((r) => (
                <tr key={r.resource} className="border-b border-slate-100">
                  <th scope="row" className="py-1 pr-3 font-medium">
                    {r.resource}
                  </th>
                  <td className="py-1 pr-3">{time(r.lastSuccessAt)}</td>
                  <td className="py-1 pr-3">
                    {r.lagSeconds === null ? "—" : `${Math.round(r.lagSeconds)} s`}
                  </td>
                  <td className="py-1 pr-3">{r.requestsUsed}</td>
                  <td className="py-1 pr-3">{r.recordsSynced}</td>
                  <td className={`py-1 ${r.failing ? "text-red-800" : "text-slate-600"}`}>
                    {r.lastError
                      ? `${r.lastError.code ?? ""} ${r.lastError.message}${r.lastError.requestId ? ` (request ${r.lastError.requestId})` : ""}`
                      : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>

      <section aria-labelledby="errors-heading" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="errors-heading" className="mb-2 font-semibold">
          Latest upstream errors
        </h2>
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
      </section>
    </div>
  );
}
