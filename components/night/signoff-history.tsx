"use client";

import { useTranslations } from "next-intl";
import { textLinkClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { InlineTextForm } from "@/components/ui/inline-text-form";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { useWrite } from "@/components/ui/use-endpoint";
import { urlOf } from "@/lib/shared/api/call";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { Signoff } from "@/lib/shared/api/night";

/** Where a sign-off's night report is: the print view and the PDF, both from its frozen snapshot. */
export const reportHref = (id: string) => `/reconciliation/report/${id}`;
export const pdfHref = (id: string) => urlOf(endpoints.night.pdf, { params: { id } });

function ApproveForm({ signoff, onApproved }: { signoff: Signoff; onApproved: () => void }) {
  const t = useTranslations("signoff");
  const approve = useWrite(endpoints.night.approve, {
    onSuccess: onApproved,
    onError: onApproved,
  });
  return (
    <InlineTextForm
      id={`approve-${signoff.id}`}
      label={t("approvalComment")}
      submitLabel={t("approve")}
      pending={approve.isPending}
      error={approve.error}
      onSubmit={(comment) => approve.mutate({ params: { id: signoff.id }, body: { comment } })}
      maxLength={2000}
    />
  );
}

/** A sign-off's state in words: final, awaiting a manager, approved by whom, superseded. */
function StatusText({ signoff: s, at }: { signoff: Signoff; at: (iso: string) => string }) {
  const t = useTranslations("signoff");
  return (
    <span data-testid={`signoff-status-${s.id}`} data-status={s.status}>
      {t(`status.${s.status}`)}
      {s.approval && ` · ${t("approvedBy", { who: s.approval.username, time: at(s.approval.approved_at) })}`}
    </span>
  );
}

/** Every sign-off of the night, newest first: who, when, its state, what was counted, its report. */
export function SignoffHistory({
  signoffs,
  money,
  at,
  canApprove,
  username,
  onChanged,
}: {
  signoffs: Signoff[];
  money: (minor: number) => string;
  at: (iso: string) => string;
  canApprove: boolean;
  username: string;
  onChanged: () => void;
}) {
  const t = useTranslations("signoff");
  return (
    <Panel title={t("historyTitle")} id="history-title">
      <DataTable
        caption={t("historyCaption")}
        hiddenCaption
        empty={<p>{t("notSigned")}</p>}
        columns={[
          t("signedColumn"),
          t("by"),
          t("state"),
          numeric(t("salesTotal")),
          numeric(t("variance")),
          t("checksum"),
          t("comment"),
          t("report"),
        ]}
        rows={signoffs.map((s) => ({
          key: s.id,
          cells: [
            at(s.signed_at),
            // A username is data, not the console's words (a user may be called "manager").
            <SafeText key="by" text={s.username} />,
            <div key="state">
              <StatusText signoff={s} at={at} />
              {canApprove && s.status === "awaiting_approval" && s.username !== username && (
                <ApproveForm signoff={s} onApproved={onChanged} />
              )}
            </div>,
            money(s.snapshot.figures.sales.total),
            money(s.counted.reduce((n, l) => n + l.variance, 0)),
            `${
              s.snapshot.checksum.matched === null
                ? t("notChecked")
                : s.snapshot.checksum.matched
                  ? t("matched")
                  : t("differed")
            }${s.snapshot.signed_against_difference ? ` · ${t("signedAgainst")}` : ""}${
              s.snapshot.completeness?.provisional ? ` · ${t("wasProvisional")}` : ""
            }`,
            <SafeText key="comment" text={s.comment} />,
            <span key="report" className="flex flex-col gap-1">
              <a className={textLinkClass} href={reportHref(s.id)}>
                {t("printView")}
                <span className="sr-only"> {t("ofSignoff", { id: s.id })}</span>
              </a>
              <a className={textLinkClass} href={pdfHref(s.id)} download>
                {t("pdf")}
                <span className="sr-only"> {t("ofSignoff", { id: s.id })}</span>
              </a>
            </span>,
          ],
        }))}
      />
    </Panel>
  );
}
