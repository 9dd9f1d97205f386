"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { TicketListView } from "@/lib/bff/staff";
import { StatusBadge } from "./ticket-view";
import { button, Card, ErrorBox, formatTime, input, secondaryButton } from "./ui";

/** Open a code directly (tickets or wristbands screen). */
export function CodeLookup({ kind }: { kind: "tickets" | "wristbands" }) {
  const router = useRouter();
  const [code, setCode] = useState("");
  function submit(e: FormEvent) {
    e.preventDefault();
    if (code.trim()) router.push(`/${kind}/${encodeURIComponent(code.trim())}`);
  }
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col text-sm">
        {kind === "tickets" ? "Ticket code" : "Wristband NFC or UHF code"}
        <input value={code} onChange={(e) => setCode(e.target.value)} className={input} autoComplete="off" />
      </label>
      <button type="submit" className={button}>
        Open
      </button>
    </form>
  );
}

export function TicketList() {
  const [status, setStatus] = useState("");
  const [since, setSince] = useState("");
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors[cursors.length - 1];
  const sinceIso = since ? new Date(since).toISOString() : "";
  const query = useQuery({
    queryKey: ["tickets", status, sinceIso, after],
    queryFn: () => {
      const qs = new URLSearchParams();
      if (status) qs.set("status", status);
      if (sinceIso) qs.set("updated_since", sinceIso);
      if (after) qs.set("starting_after", after);
      return fetchJson<TicketListView>(`/api/tickets?${qs}`);
    },
  });
  return (
    <Card title="Ticket list">
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setCursors([]);
            }}
            className={input}
          >
            <option value="">any</option>
            <option value="active">active</option>
            <option value="used">used</option>
            <option value="inactive">inactive (cancelled)</option>
          </select>
        </label>
        <label className="flex flex-col text-sm">
          Changed since
          <input
            type="datetime-local"
            value={since}
            onChange={(e) => {
              setSince(e.target.value);
              setCursors([]);
            }}
            className={input}
          />
        </label>
      </div>
      {query.isPending && <p aria-busy="true">Loading tickets…</p>}
      {query.isError && <ErrorBox error={query.error} />}
      {query.data && (
        <>
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200">
                <th className="py-1">Code</th>
                <th>Status</th>
                <th>Type</th>
                <th>Attendee</th>
                <th>Changed</th>
              </tr>
            </thead>
            <tbody>
              {query.data.data.map((t) => (
                <tr key={t.id} className="border-b border-slate-100">
                  <td className="py-1">
                    <Link className="text-blue-700 underline" href={`/tickets/${encodeURIComponent(t.code)}`}>
                      {t.code}
                    </Link>
                  </td>
                  <td>
                    <StatusBadge status={t.status} />
                  </td>
                  <td>{t.ticket_type.name}</td>
                  <td>{t.attendee.name}</td>
                  <td>{formatTime(t.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {query.data.data.length === 0 && <p className="mt-2 text-sm text-slate-600">No tickets match.</p>}
          <div className="mt-3 flex gap-2">
            <button
              type="button"
              className={secondaryButton}
              disabled={cursors.length === 0}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              Previous
            </button>
            <button
              type="button"
              className={secondaryButton}
              disabled={!query.data.has_more || !query.data.next_cursor}
              onClick={() => setCursors((c) => [...c, query.data.next_cursor!])}
            >
              Next
            </button>
          </div>
        </>
      )}
    </Card>
  );
}
