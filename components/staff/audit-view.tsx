"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ScrollRegion } from "@/components/scroll-region";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { AuditEntryView } from "@/lib/bff/staff";
import { ErrorBox, formatTime, secondaryButton } from "./ui";

/** Every write: who, what, when, the Idempotency-Key, the upstream request id, the outcome. */
export function AuditView() {
  const [pages, setPages] = useState<string[]>([]);
  const before = pages[pages.length - 1];
  const query = useQuery({
    queryKey: ["audit", before],
    queryFn: () =>
      fetchJson<{ data: AuditEntryView[]; next_before: string | null }>(
        `/api/audit${before ? `?before=${before}` : ""}`,
      ),
    refetchInterval: before ? false : 30_000,
  });
  if (query.isPending) return <p aria-busy="true">Loading the audit log…</p>;
  if (query.isError) return <ErrorBox error={query.error} />;
  return (
    <div className="rounded border border-slate-200 bg-white p-4">
      <ScrollRegion label="Audit log">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200">
              <th className="py-1">When</th>
              <th>Who</th>
              <th>Action</th>
              <th>Target</th>
              <th>Outcome</th>
              <th>Idempotency-Key</th>
              <th>Upstream request</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {query.data.data.map((e) => (
              <tr key={e.id} className="border-b border-slate-100 align-top">
                <td className="py-1 whitespace-nowrap">{formatTime(e.at)}</td>
                <td>
                  {e.username} ({e.role})
                </td>
                <td>{e.action}</td>
                <td className="font-mono text-xs">{e.target ?? "—"}</td>
                <td className={e.outcome === "ok" ? "text-green-800" : "text-red-800"}>{e.outcome}</td>
                <td className="font-mono text-xs">{e.idempotency_key ?? "—"}</td>
                <td className="font-mono text-xs">{e.upstream_request_id ?? "—"}</td>
                <td className="font-mono text-xs">{JSON.stringify(e.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {query.data.data.length === 0 && <p className="mt-2 text-sm">No writes yet.</p>}
      <div className="mt-3 flex gap-2">
        <button
          type="button"
          className={secondaryButton}
          disabled={!pages.length}
          onClick={() => setPages((p) => p.slice(0, -1))}
        >
          Newer
        </button>
        <button
          type="button"
          className={secondaryButton}
          disabled={!query.data.next_before}
          onClick={() => setPages((p) => [...p, query.data.next_before!])}
        >
          Older
        </button>
      </div>
    </div>
  );
}
