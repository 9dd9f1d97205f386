"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { inputClass, textLinkClass } from "@/components/ui/class-names";
import { CursorPagerNav, useCursorPager } from "@/components/ui/cursor-pager";
import { DataTable } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { fetchJson } from "@/lib/shared/api/client";
import { TicketListView } from "@/lib/shared/api/staff";
import { dateTime } from "@/lib/shared/format/time";
import { CodeForm } from "./code-form";
import { StatusBadge } from "./status-badge";

/** Open a code directly (tickets or wristbands screen). */
export function CodeLookup({ kind }: { kind: "tickets" | "wristbands" }) {
  const router = useRouter();
  return (
    <CodeForm
      label={kind === "tickets" ? "Ticket code" : "Wristband NFC or UHF code"}
      submitLabel="Open"
      onCode={(code) => router.push(`/${kind}/${encodeURIComponent(code)}`)}
    />
  );
}

export function TicketList() {
  const [status, setStatus] = useState("");
  const [since, setSince] = useState("");
  const pager = useCursorPager();
  const sinceIso = since ? new Date(since).toISOString() : "";
  const query = useQuery({
    queryKey: ["tickets", status, sinceIso, pager.cursor],
    queryFn: () => {
      const qs = new URLSearchParams();
      if (status) qs.set("status", status);
      if (sinceIso) qs.set("updated_since", sinceIso);
      if (pager.cursor) qs.set("starting_after", pager.cursor);
      return fetchJson(`/api/tickets?${qs}`, TicketListView);
    },
  });
  const list = query.data;
  return (
    <Panel title="Ticket list">
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              pager.reset();
            }}
            className={inputClass}
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
              pager.reset();
            }}
            className={inputClass}
          />
        </label>
      </div>
      {query.isPending && <Loading what="tickets" />}
      {query.isError && <ErrorBox error={query.error} />}
      {list && (
        <>
          <DataTable
            caption="Tickets"
            hiddenCaption
            columns={["Code", "Status", "Type", "Attendee", "Changed"]}
            rows={list.data.map((t) => ({
              key: t.id,
              cells: [
                <Link key="code" className={textLinkClass} href={`/tickets/${encodeURIComponent(t.code)}`}>
                  {t.code}
                </Link>,
                <StatusBadge key="status" status={t.status} />,
                t.ticket_type.name,
                <SafeText key="attendee" text={t.attendee.name} />,
                dateTime(t.updated_at, list.timeZone),
              ],
            }))}
          />
          {list.data.length === 0 && (
            <Empty plain className="mt-2">
              No tickets match.
            </Empty>
          )}
          <CursorPagerNav
            pager={pager}
            next={list.has_more ? list.next_cursor : null}
            label="Ticket list pages"
            backLabel="Previous"
            forwardLabel="Next"
          />
        </>
      )}
    </Panel>
  );
}
