"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { inputClass, textLinkClass } from "@/components/ui/class-names";
import { CursorPagerNav, useCursorPager } from "@/components/ui/cursor-pager";
import { DataTable } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { type CallInput, endpoints } from "@/lib/shared/api/endpoints";

type ListQuery = NonNullable<CallInput<typeof endpoints.gate.tickets>["query"]>;

import { dateTime } from "@/lib/shared/format/time";
import { CodeForm } from "../ui/code-form";
import { StatusBadge } from "./status-badge";

/** Open a code directly (tickets or wristbands screen). */
export function CodeLookup({ kind }: { kind: "tickets" | "wristbands" }) {
  const t = useTranslations("lookup");
  const router = useRouter();
  return (
    <CodeForm
      label={kind === "tickets" ? t("ticketCode") : t("wristbandCode")}
      submitLabel={t("open")}
      onCode={(code) => router.push(`/${kind}/${encodeURIComponent(code)}`)}
    />
  );
}

export function TicketList() {
  const t = useTranslations("ticketList");
  const st = useTranslations("status");
  const locale = useIntlLocale();
  const [status, setStatus] = useState("");
  const [since, setSince] = useState("");
  const pager = useCursorPager();
  const sinceIso = since ? new Date(since).toISOString() : "";
  const query = useEndpoint(endpoints.gate.tickets, {
    query: {
      status: (status || undefined) as ListQuery["status"],
      updated_since: sinceIso || undefined,
      starting_after: pager.cursor ?? undefined,
    },
  });
  const list = query.data;
  return (
    <Panel title={t("title")}>
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <label className="flex flex-col text-sm">
          {t("status")}
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              pager.reset();
            }}
            className={inputClass}
          >
            <option value="">{t("any")}</option>
            <option value="active">{st("active")}</option>
            <option value="used">{st("used")}</option>
            <option value="inactive">{t("inactiveCancelled")}</option>
          </select>
        </label>
        <label className="flex flex-col text-sm">
          {t("changedSince")}
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
      {query.isPending && <Loading what={t("loading")} />}
      {query.isError && <ErrorBox error={query.error} />}
      {list && (
        <>
          <DataTable
            caption={t("caption")}
            hiddenCaption
            columns={[t("colCode"), t("colStatus"), t("colType"), t("colAttendee"), t("colChanged")]}
            rows={list.data.map((ticket) => ({
              key: ticket.id,
              cells: [
                <Link
                  key="code"
                  className={textLinkClass}
                  href={`/tickets/${encodeURIComponent(ticket.code)}`}
                >
                  {ticket.code}
                </Link>,
                <StatusBadge key="status" status={ticket.status} />,
                ticket.ticket_type.name,
                <SafeText key="attendee" text={ticket.attendee.name} />,
                dateTime(ticket.updated_at, list.timeZone, locale),
              ],
            }))}
          />
          {list.data.length === 0 && (
            <Empty plain className="mt-2">
              {t("none")}
            </Empty>
          )}
          <CursorPagerNav
            pager={pager}
            next={list.has_more ? list.next_cursor : null}
            label={t("pages")}
            backLabel={t("previous")}
            forwardLabel={t("next")}
          />
        </>
      )}
    </Panel>
  );
}
