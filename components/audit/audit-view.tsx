"use client";

import { useTranslations } from "next-intl";
import { CursorPagerNav, useCursorPager } from "@/components/ui/cursor-pager";
import { DataTable } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { dateTime } from "@/lib/shared/format/time";

const mono = "font-mono text-xs";
/** Long values wrap anywhere instead of widening the page. */
const wrapping = `${mono} max-w-[10rem] break-all`;
/** A detail longer than this is folded: its start shows, the rest opens on demand. */
const FOLD_AFTER = 80;

/** An entry's detail: short ones inline; long ones folded, wrapped and indented when opened. */
function Detail({ detail }: { detail: Record<string, unknown> }) {
  const line = escapeBidi(JSON.stringify(detail));
  // The width is held by a box of its own: table cells do not honour max-width.
  if (line.length <= FOLD_AFTER) return <div className="max-w-[20rem] break-all">{line}</div>;
  return (
    <details className="max-w-[20rem]">
      <summary className="cursor-pointer break-all">{`${line.slice(0, FOLD_AFTER - 20)}…`}</summary>
      <pre className="mt-1 whitespace-pre-wrap break-all">{escapeBidi(JSON.stringify(detail, null, 2))}</pre>
    </details>
  );
}

/** Every write: who, what, when, the Idempotency-Key, the upstream request id, the outcome. */
export function AuditView() {
  const t = useTranslations("audit");
  const roles = useTranslations("roles");
  const locale = useIntlLocale();
  const pager = useCursorPager();
  const query = useEndpoint(
    endpoints.audit.log,
    { query: { before: pager.cursor ?? undefined } },
    // Only the newest page grows.
    pager.cursor ? { refetchInterval: false } : {},
  );
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { data: entries, next_before, timeZone } = query.data;
  return (
    <div className="rounded border border-slate-200 bg-white p-4">
      <DataTable
        caption={t("caption")}
        hiddenCaption
        columns={[
          { label: t("when"), cellClassName: "whitespace-nowrap" },
          t("who"),
          t("action"),
          { label: t("target"), cellClassName: wrapping },
          t("outcome"),
          { label: t("idempotencyKey"), cellClassName: wrapping },
          { label: t("upstreamRequest"), cellClassName: wrapping },
          { label: t("detail"), cellClassName: `${mono} min-w-[12rem]` },
        ]}
        rows={entries.map((e) => ({
          key: e.id,
          className: "align-top",
          cells: [
            dateTime(e.at, timeZone, locale),
            t("who_role", { username: escapeBidi(e.username), role: roles(e.role) }),
            e.action,
            <SafeText key="target" text={e.target ?? "—"} />,
            <span key="outcome" className={e.outcome === "ok" ? "text-green-800" : "text-red-800"}>
              {/* Not ok: the error code, kept as the code (support searches by it). */}
              {e.outcome === "ok" ? t("ok") : e.outcome}
            </span>,
            e.idempotency_key ?? "—",
            e.upstream_request_id ?? "—",
            <Detail key="detail" detail={e.detail} />,
          ],
        }))}
      />
      {entries.length === 0 && (
        <Empty plain className="mt-2">
          {t("none")}
        </Empty>
      )}
      <CursorPagerNav pager={pager} next={next_before} label={t("pages")} />
    </div>
  );
}
