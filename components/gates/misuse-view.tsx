"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { textLinkClass } from "@/components/ui/class-names";
import { DataTable } from "@/components/ui/data-table";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { MisuseList } from "@/lib/shared/api/gates";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatMoney } from "@/lib/shared/format/money";
import { useTimeText } from "../ui/time-text";

type Case = MisuseList["cases"][number];
const MONEY = new Set(["amount", "balance", "offline_amount"]);

/** The misuse cases, newest first (or the one a link names), each with its evidence records. */
export function MisuseScreen({ caseId }: { caseId?: string }) {
  const t = useTranslations("misuse");
  const query = useEndpoint(endpoints.gates.misuse, { query: caseId ? { case: caseId } : {} });
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const view = query.data;
  return (
    <div className="space-y-4">
      <h2 className="font-semibold">{t("heading")}</h2>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      {caseId && (
        <Link className={textLinkClass} href="/gates/misuse">
          {t("allCases")}
        </Link>
      )}
      {view.cases.length === 0 ? (
        <Empty>{t("none")}</Empty>
      ) : (
        <ul className="space-y-4" aria-label={t("heading")}>
          {view.cases.map((c) => (
            <CaseCard key={c.id} c={c} view={view} listed={!caseId} />
          ))}
        </ul>
      )}
    </div>
  );
}

function CaseCard({ c, view, listed }: { c: Case; view: MisuseList; listed: boolean }) {
  const t = useTranslations("misuse");
  const locale = useIntlLocale();
  const time = useTimeText(view.time_zone);
  const zone = (id: string | null) => (id ? (view.zones.find((z) => z.id === id)?.name ?? id) : "—");
  const figures = Object.fromEntries(
    Object.entries(c.figures).map(([k, v]) => {
      if (v === null) return [k, "—"];
      if (MONEY.has(k) && typeof v === "number") return [k, formatMoney(v, view.currency, locale)];
      if ((k === "from_zone" || k === "to_zone" || k === "zone_id") && typeof v === "string")
        return [k, escapeBidi(zone(v))];
      return [k, typeof v === "string" ? escapeBidi(v) : v];
    }),
  );
  return (
    <li className="rounded border border-slate-200 bg-white p-4" data-testid={`case-${c.kind}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">{t(`kind.${c.kind}`)}</h3>
        <span className="text-xs text-slate-500">{t("detected", { time: time(c.detected_at) })}</span>
      </div>
      <p className="mt-1 text-sm">{t(`detail.${c.kind}`, figures)}</p>
      <p className="mt-1 text-xs text-slate-600">
        {c.alert_id ? (
          <Link className={textLinkClass} href="/alerts">
            {t(c.alert_state === "open" ? "alertOpen" : "alertResolved")}
          </Link>
        ) : (
          t("noAlert")
        )}
        {c.kind === "offline_double_spend" && (
          <>
            {" · "}
            <Link className={textLinkClass} href="/alerts">
              {t("negativeAlert")}
            </Link>
          </>
        )}
      </p>
      <DataTable
        caption={t("evidence", { kind: t(`kind.${c.kind}`), id: String(c.id) })}
        columns={[t("record"), t("occurred"), t("arrived"), t("where"), t("who"), t("what")]}
        rows={c.evidence.map((e) => ({
          key: `${e.resource}:${e.id}`,
          cells: [
            e.device_id ? (
              <Link key="d" className={textLinkClass} href={`/terminals/${encodeURIComponent(e.device_id)}`}>
                {t(`resource.${e.resource}`)} {e.id.slice(-6)}
              </Link>
            ) : (
              `${t(`resource.${e.resource}`)} ${e.id.slice(-6)}`
            ),
            time(e.occurred_at),
            time(e.created_at),
            `${e.device_id ?? "—"}${e.zone_id ? ` · ${zone(e.zone_id)}` : ""}`,
            e.wristband_id ?? e.ticket_code ?? "—",
            e.amount !== null
              ? `${e.detail ?? ""} ${formatMoney(e.amount, view.currency, locale)}`
              : e.allowed === null
                ? (e.detail ?? "—")
                : `${e.allowed ? t("allowed") : t("denied")} ${e.detail ?? ""}`,
          ],
        }))}
      />
      {listed && c.evidence_total > c.evidence.length && (
        <Link className={`${textLinkClass} mt-2 inline-block text-sm`} href={`/gates/misuse?case=${c.id}`}>
          {t("allEvidence", { count: c.evidence_total })}
        </Link>
      )}
    </li>
  );
}
