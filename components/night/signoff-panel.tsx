"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { inputClass, primaryButtonClass, secondaryButtonClass } from "@/components/ui/class-names";
import { useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { ErrorBox } from "@/components/ui/states";
import { useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { NightReport } from "@/lib/shared/api/night";
import { beyondNight } from "@/lib/shared/night-close";
import { CountTable } from "./count-table";
import type { NightCount } from "./use-night-count";

type Money = (minor: number) => string;

/** The first few names of a list, and how many more. */
function someOf(names: string[], t: (key: string, v: Record<string, string | number>) => string, most = 8) {
  return names.length <= most
    ? names.join(", ")
    : t("andMore", { names: names.slice(0, most).join(", "), count: names.length - most });
}

/** Why the sign-off button is disabled, in words (null: it is not). */
function useBlocked(
  report: NightReport,
  count: NightCount,
  form: { comment: string; against: boolean; mirroring: boolean; clock: (iso: string) => string },
): string | null {
  const t = useTranslations("signoff");
  if (!report.ended) return t("blockedRunning", { time: form.clock(report.day!.ends_at) });
  if (form.mirroring) return t("blockedMirroring");
  if (count.invalid) return t("notNumber");
  if (report.checksum?.matched !== true && !form.against) return t("blockedChecksum");
  if (count.needsApproval && form.comment.trim() === "") return t("blockedComment");
  return null;
}

/** What the sign-off will record, before the button: lines counted, totals, tolerance, approval. */
function Summary({ report, count, money }: { report: NightReport; count: NightCount; money: Money }) {
  const t = useTranslations("signoff");
  const x = count.totals;
  const beyond = count.lines.filter((l) => l.beyond).length;
  const hide = count.blind && x.counted_lines < x.lines;
  return (
    <div
      className="mt-3 rounded border border-slate-200 bg-slate-50 p-3 text-sm"
      data-testid="signoff-summary"
    >
      <p>
        {t("summary", {
          counted: x.counted_lines,
          lines: x.lines,
          expected: hide ? t("hiddenBlind") : money(x.expected_counted),
          total: money(x.counted),
          variance: hide ? t("hiddenBlind") : money(x.variance),
        })}
      </p>
      <p className="text-slate-600">
        {t("toleranceRule", { line: money(report.tolerance.line), night: money(report.tolerance.night) })}
      </p>
      {count.needsApproval && (
        <p className="mt-1 font-semibold text-red-800" data-testid="signoff-needs-approval">
          {beyondNight(x.variance, report.tolerance)
            ? t("needsApprovalNight", { count: beyond })
            : t("needsApproval", { count: beyond })}
        </p>
      )}
    </div>
  );
}

/** The count of the night and its sign-off: save a draft any time, sign once the night is over. */
export function SignoffPanel({
  report,
  count,
  canSign,
  onChanged,
  money,
  clock,
  desk,
  mirroring,
}: {
  report: NightReport;
  count: NightCount;
  canSign: boolean;
  onChanged: () => void;
  money: Money;
  clock: (iso: string) => string;
  desk: (deviceId: string) => string;
  mirroring: boolean;
}) {
  const t = useTranslations("signoff");
  const valueText = useValueText();
  const reasonId = useId();
  const [comment, setComment] = useState("");
  const [against, setAgainst] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const day = report.day!;
  // The form's key: renewed after a final answer (a new form), kept to retry a lost answer.
  const sign = useWrite(endpoints.night.signoff, {
    idempotent: true,
    onSuccess: () => {
      // A new form: an empty comment; the count stays (to sign again after a late record).
      setComment("");
      setAgainst(false);
      setConfirming(false);
      onChanged();
    },
    onError: () => {
      setConfirming(false);
      onChanged();
    },
  });
  const draft = useWrite(endpoints.night.draft, { onSuccess: () => count.saved() });
  const reason = useBlocked(report, count, { comment, against, mirroring, clock });
  const submit = () =>
    sign.mutate({
      body: {
        day_id: day.id,
        based_on: report.signoffs[0]?.id ?? null,
        comment,
        counted: count.request(),
        sign_against_difference: against,
        blind: count.blind,
      },
    });
  const checksum = report.checksum;
  return (
    <Panel title={t("title")} id="signoff-title">
      {canSign && (
        <label className="no-print mb-2 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={count.blind} onChange={(e) => count.setBlind(e.target.checked)} />
          {t("blind")}
        </label>
      )}
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          if (reason || sign.isPending) return;
          // Lines left blank are named first; only "Sign off anyway" goes on (a double click does not).
          const confirmed = (ev.nativeEvent as SubmitEvent).submitter?.dataset.confirm === "true";
          if (count.blank.length > 0 && !confirmed) return setConfirming(true);
          submit();
        }}
      >
        <CountTable count={count} canCount={canSign} money={money} desk={desk} />
        <Summary report={report} count={count} money={money} />
        {report.completeness?.provisional && (
          <p className="mt-3 text-sm text-amber-900" data-testid="signoff-provisional">
            {t("provisionalNote")}
          </p>
        )}
        {canSign && report.ended && checksum?.matched !== true && (
          <div
            className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm"
            data-testid="signoff-checksum"
          >
            <p>{checksum?.upstream ? t("checksumDiffers") : t("checksumPending")}</p>
            <label className="mt-1 flex items-center gap-2 font-medium">
              <input type="checkbox" checked={against} onChange={(e) => setAgainst(e.target.checked)} />
              {t("signAgainst")}
            </label>
          </div>
        )}
        {canSign && (
          <div className="no-print mt-3 flex flex-wrap items-end gap-3">
            <label className="flex grow flex-col text-sm">
              <span className="font-medium">
                {t("comment")}
                {count.needsApproval && ` ${t("commentRequired")}`}
              </span>
              <textarea
                className={inputClass}
                rows={2}
                maxLength={2000}
                aria-required={count.needsApproval}
                value={comment}
                onChange={(ev) => setComment(ev.target.value)}
              />
            </label>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={draft.isPending || count.invalid}
              onClick={() => draft.mutate({ body: { day_id: day.id, lines: count.draftRequest() } })}
            >
              {t("saveDraft")}
            </button>
            <button
              type="submit"
              className={primaryButtonClass}
              disabled={sign.isPending || reason !== null}
              aria-describedby={reason ? reasonId : undefined}
            >
              {report.signoffs.length ? t("signAgain") : t("signOff")}
            </button>
          </div>
        )}
        {canSign && reason && (
          <p id={reasonId} className="mt-2 text-sm text-slate-700" data-testid="signoff-blocked">
            {reason}
          </p>
        )}
        {confirming && count.blank.length > 0 && (
          <div
            role="alert"
            className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm"
            data-testid="signoff-confirm"
          >
            <p className="font-semibold">
              {t("confirmBlank", { counted: count.totals.counted_lines, lines: count.totals.lines })}
            </p>
            <p>
              {t("blankLines", {
                names: someOf(
                  count.blank.map(
                    (l) => `${desk(l.expected.device_id)} (${valueText(l.expected.payment_method)})`,
                  ),
                  t,
                ),
              })}
            </p>
            <div className="mt-2 flex gap-2">
              <button
                type="submit"
                data-confirm="true"
                className={primaryButtonClass}
                disabled={sign.isPending}
              >
                {t("signAnyway")}
              </button>
              <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(false)}>
                {t("keepCounting")}
              </button>
            </div>
          </div>
        )}
        {sign.isError && <ErrorBox error={sign.error} what={t("theSignoff")} />}
        {draft.isError && <ErrorBox error={draft.error} what={t("theDraft")} />}
        {draft.isSuccess && (
          <p role="status" className="mt-2 text-sm text-green-800">
            {t("draftSaved")}
          </p>
        )}
        {sign.isSuccess && (
          <p role="status" className="mt-2 text-sm text-green-800" data-testid="signoff-done">
            {sign.data.status === "awaiting_approval" ? t("signedAwaiting") : t("signed")}
          </p>
        )}
      </form>
    </Panel>
  );
}
