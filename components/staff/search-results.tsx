"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { textLinkClass } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { isConsoleError } from "@/lib/shared/api/errors";
import { NAME_MATCHES_MAX } from "@/lib/shared/api/search";
import { fetchSearch, pageOf, searchKey } from "./search-query";
import { StatusBadge } from "./status-badge";

/**
 * The staff's home: what the header search found for `?q=` (the tickets of the attendees with
 * that name, best first), or how to search when nothing was asked yet.
 */
export function SearchResults() {
  const text = useSearchParams().get("q")?.trim() ?? "";
  const router = useRouter();
  const query = useQuery({
    queryKey: searchKey(text),
    queryFn: () => fetchSearch(text),
    enabled: text !== "",
    // A search answers once; the header box asks again when staff search again.
    refetchInterval: false,
    refetchOnWindowFocus: false,
    staleTime: 60_000,
    retry: false,
  });
  const found = query.data;
  // A code typed into the address bar (or a reload) still opens its page.
  useEffect(() => {
    if (found && found.kind !== "names") router.replace(pageOf(found, text));
  }, [found, router, text]);

  if (!text) {
    return (
      <p className="max-w-prose text-slate-700">
        Type a ticket code, a wristband&apos;s NFC or UHF code, or an attendee&apos;s name (accents not
        needed, the start of each word is enough) in the search box, or press <strong>Scan</strong> to read a
        ticket&apos;s QR code or barcode with the camera.
      </p>
    );
  }
  if (query.isPending) return <Loading what="the search" />;
  if (query.isError) {
    const error = query.error;
    return isConsoleError(error) && error.code === "nothing_found" ? (
      <Empty>{error.message}</Empty>
    ) : (
      <ErrorBox error={error} />
    );
  }
  if (found?.kind !== "names") return <Loading what="the page found" />;
  return (
    <Panel title={`Tickets of attendees named “${text}”`} id="name-results">
      <DataTable
        caption={`Attendees named “${text}”, best match first`}
        hiddenCaption
        phone="cards"
        columns={["Attendee", "Code", "Type", "Status"]}
        rows={found.matches.map((m) => ({
          key: m.code,
          cells: [
            <Link
              key="name"
              className={`${textLinkClass} inline-flex items-center max-md:min-h-11`}
              href={`/tickets/${encodeURIComponent(m.code)}`}
            >
              {m.name}
            </Link>,
            <span key="code" className="font-mono text-xs">
              {m.code}
            </span>,
            m.ticket_type,
            <StatusBadge key="status" status={m.status} />,
          ],
        }))}
      />
      {found.more && (
        <p className="mt-2 text-sm text-slate-600">
          Only the best {NAME_MATCHES_MAX} are shown: type more of the name to find the others.
        </p>
      )}
    </Panel>
  );
}
