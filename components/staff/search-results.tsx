"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { textLinkClass } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { useErrorText } from "@/components/ui/error-text";
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
  const t = useTranslations("search");
  const errorText = useErrorText();
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
        {t.rich("help", { b: (chunks) => <strong>{chunks}</strong> })}
      </p>
    );
  }
  if (query.isPending) return <Loading what={t("loadingSearch")} />;
  if (query.isError) {
    const error = query.error;
    return isConsoleError(error) && error.code === "nothing_found" ? (
      <Empty>{errorText(error)}</Empty>
    ) : (
      <ErrorBox error={error} />
    );
  }
  if (found?.kind !== "names") return <Loading what={t("loadingPage")} />;
  return (
    <Panel title={t("resultsTitle", { text })} id="name-results">
      <DataTable
        caption={t("resultsCaption", { text })}
        hiddenCaption
        phone="cards"
        columns={[t("colAttendee"), t("colCode"), t("colType"), t("colStatus")]}
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
      {found.more && <p className="mt-2 text-sm text-slate-600">{t("more", { max: NAME_MATCHES_MAX })}</p>}
    </Panel>
  );
}
