"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { textLinkClass } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { useErrorText } from "@/components/ui/error-text";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { isConsoleError } from "@/lib/shared/api/errors";
import { NAME_MATCHES_MAX, type NameSearchResult } from "@/lib/shared/api/search";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatCount } from "@/lib/shared/format/number";
import { ticketVerdict } from "@/lib/shared/gate-verdict";
import { fetchSearch, pageOf, searchKey } from "./search-query";
import { StatusBadge } from "./status-badge";
import { useGateContext, VerdictBadge } from "./verdict-view";

/**
 * The staff's home: what the header search found for `?q=` (the tickets of the attendees with
 * that name, best first, each with its verdict for today), or how to search when nothing was asked
 * yet. Only the answer for this `q` is ever shown: while a new search runs, or when it fails,
 * nothing of an earlier one stays.
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
  return <NameResults text={text} found={found} />;
}

/** The tickets found by name, each with its verdict for today; while names load, how many are there. */
function NameResults({ text, found }: { text: string; found: NameSearchResult }) {
  const t = useTranslations("search");
  const locale = useIntlLocale();
  const gate = useGateContext(found.gate);
  const shownText = escapeBidi(text);
  return (
    <Panel title={t("resultsTitle", { text: shownText })} id="name-results">
      {found.loading && (
        <p
          role="status"
          className="mb-3 rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900"
        >
          {t("stillLoading", {
            count: found.loading.mirrored,
            shown: formatCount(found.loading.mirrored, locale),
          })}
        </p>
      )}
      <DataTable
        caption={t("resultsCaption", { text: shownText })}
        hiddenCaption
        phone="cards"
        empty={<Empty plain>{t("noneYet")}</Empty>}
        columns={[t("colAttendee"), t("colToday"), t("colCode"), t("colType"), t("colStatus")]}
        rows={found.matches.map((m) => ({
          key: m.code,
          cells: [
            <Link
              key="name"
              className={`${textLinkClass} inline-flex max-w-full items-center max-md:min-h-11`}
              href={`/tickets/${encodeURIComponent(m.code)}`}
            >
              <SafeText text={m.name} />
            </Link>,
            <VerdictBadge
              key="today"
              verdict={ticketVerdict(
                {
                  status: m.status,
                  valid_days: m.valid_days,
                  extra_zones: m.extra_zones,
                  checked_in_at: m.checked_in_at,
                  wristband: m.wristband ? { nfc: m.wristband } : null,
                },
                gate,
                m.type_zone_ids,
              )}
            />,
            <span key="code" className="font-mono text-xs">
              <SafeText text={m.code} />
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
