"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { toolButtonClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { eventFormat } from "@/components/ui/event-format";
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { RecordsNote } from "@/components/ui/mirror-status";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox } from "@/components/ui/states";
import { postJson } from "@/lib/shared/api/client";
import { type NightReport, Signoff, type SignoffRequest } from "@/lib/shared/api/reconciliation";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { parseAmount } from "@/lib/shared/format/money";

/** The money each desk should hold per method, what was counted, and the sign-off itself. */
export function SignoffPanel({
  report,
  canSign,
  onSigned,
}: {
  report: NightReport;
  canSign: boolean;
  onSigned: () => void;
}) {
  const t = useTranslations("signoff");
  const valueText = useValueText();
  const { money, currency } = eventFormat(report, useIntlLocale());
  const [counted, setCounted] = useState<Record<string, string>>({});
  const [comment, setComment] = useState("");
  const sign = useMutation({
    mutationFn: (body: SignoffRequest) => postJson("/api/reconciliation/signoff", body, Signoff),
    onSuccess: () => {
      setComment("");
      onSigned();
    },
  });
  const lines = (report.figures?.expected ?? []).map((e) => {
    const key = `${e.device_id}|${e.payment_method}`;
    const text = counted[key] ?? "";
    const value = text === "" ? null : parseAmount(text, currency, { negative: true });
    return { e, key, text, value, invalid: text !== "" && value === null };
  });
  const invalid = lines.some((l) => l.invalid);
  return (
    <Panel title={t("title")} id="signoff-title">
      {report.day && <RecordsNote ctx={report} dayId={report.day.id} />}
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          if (invalid || !report.day) return;
          sign.mutate({
            day_id: report.day.id,
            comment,
            // Only the desks and methods counted: an empty field is "not counted", not zero.
            counted: lines.flatMap((l) =>
              l.value === null
                ? []
                : [{ device_id: l.e.device_id, payment_method: l.e.payment_method, counted: l.value }],
            ),
          });
        }}
      >
        <DataTable
          caption={t("caption")}
          columns={[
            t("desk"),
            t("method"),
            numeric(t("topups")),
            numeric(t("withdrawals")),
            numeric(t("sales")),
            numeric(t("expected")),
            numeric(t("counted")),
            numeric(t("variance")),
          ]}
          rows={lines.map((l) => ({
            key: l.key,
            cells: [
              l.e.device_id || t("unknown"),
              valueText(l.e.payment_method),
              money(l.e.topups),
              money(l.e.withdrawals),
              money(l.e.sales),
              <span key="x" data-testid={`expected-${l.key}`}>
                {money(l.e.expected)}
              </span>,
              canSign ? (
                <input
                  key="c"
                  aria-label={t("countedAt", {
                    method: valueText(l.e.payment_method),
                    desk: l.e.device_id ? escapeBidi(l.e.device_id) : t("unknown"),
                  })}
                  aria-invalid={l.invalid}
                  inputMode="decimal"
                  className="w-28 rounded border border-slate-300 px-2 py-0.5 text-right"
                  value={l.text}
                  placeholder={t("placeholder")}
                  onChange={(ev) => setCounted((c) => ({ ...c, [l.key]: ev.target.value }))}
                />
              ) : (
                "—"
              ),
              l.value === null ? "—" : money(l.value - l.e.expected),
            ],
          }))}
        />
        {report.completeness?.provisional && (
          <p className="mt-3 text-sm text-amber-900" data-testid="signoff-provisional">
            {t("provisionalNote")}
          </p>
        )}
        {canSign && (
          <div className="no-print mt-3 flex flex-wrap items-end gap-3">
            <label className="flex grow flex-col text-sm">
              <span className="font-medium">{t("comment")}</span>
              <textarea
                className="rounded border border-slate-300 px-2 py-1"
                rows={2}
                maxLength={2000}
                value={comment}
                onChange={(ev) => setComment(ev.target.value)}
              />
            </label>
            <button type="submit" className={toolButtonClass} disabled={sign.isPending || invalid}>
              {report.signoffs.length ? t("signAgain") : t("signOff")}
            </button>
          </div>
        )}
        {invalid && (
          <p role="alert" className="text-sm text-red-800">
            {t("notNumber")}
          </p>
        )}
        {sign.isError && <ErrorBox error={sign.error} what={t("theSignoff")} />}
        {sign.isSuccess && (
          <p role="status" className="text-sm text-green-800">
            {t("signed")}
          </p>
        )}
      </form>
    </Panel>
  );
}

/** Every sign-off of the night, newest first: who, when, what was signed and counted. */
export function SignoffHistory({
  signoffs,
  money,
  at,
}: {
  signoffs: Signoff[];
  money: (minor: number) => string;
  at: (iso: string) => string;
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
          numeric(t("sales")),
          numeric(t("salesTotal")),
          numeric(t("variance")),
          t("checksum"),
          t("comment"),
        ]}
        rows={signoffs.map((s) => ({
          key: s.id,
          cells: [
            at(s.signed_at),
            s.username,
            s.snapshot.figures.sales.count,
            money(s.snapshot.figures.sales.total),
            money(s.counted.reduce((n, l) => n + l.variance, 0)),
            `${
              s.snapshot.checksum.matched === null
                ? t("notChecked")
                : s.snapshot.checksum.matched
                  ? t("matched")
                  : t("differed")
            }${s.snapshot.completeness?.provisional ? ` · ${t("wasProvisional")}` : ""}`,
            <SafeText key="comment" text={s.comment} />,
          ],
        }))}
      />
    </Panel>
  );
}
