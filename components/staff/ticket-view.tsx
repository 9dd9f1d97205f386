"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import {
  dangerButtonClass,
  inputClass,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from "@/components/ui/class-names";
import { Field, Fields } from "@/components/ui/fields";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox, Loading } from "@/components/ui/states";
import { fetchJson } from "@/lib/shared/api/client";
import { type Ticket, TicketAnswer, TicketView as TicketAnswerSchema } from "@/lib/shared/api/staff";
import { dateTime } from "@/lib/shared/format/time";
import { intlLocale, type Locale } from "@/lib/shared/i18n/locales";
import { useIdempotentPost } from "./idempotent-post";
import { ScanButton } from "./scan-button";
import { StatusBadge } from "./status-badge";

export function TicketView({
  code,
  canCheckIn,
  canCancel,
}: {
  code: string;
  canCheckIn: boolean;
  canCancel: boolean;
}) {
  const t = useTranslations("ticket");
  const locale = intlLocale(useLocale() as Locale);
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ["ticket", code],
    queryFn: () => fetchJson(`/api/tickets/${encodeURIComponent(code)}`, TicketAnswerSchema),
  });
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { ticket, timeZone } = query.data;
  const update = (next: Ticket) => queryClient.setQueryData(["ticket", code], { ticket: next, timeZone });
  const when = (at: string | null) => (at ? dateTime(at, timeZone, locale) : "—");
  return (
    <div className="space-y-4">
      <Panel title={t("title", { code: ticket.code })}>
        <Fields>
          <Field label={t("status")}>
            <StatusBadge status={ticket.status} />
          </Field>
          <Field label={t("type")}>{ticket.ticket_type.name}</Field>
          <Field label={t("attendee")}>
            <SafeText text={ticket.attendee.name} /> · <SafeText text={ticket.attendee.email} />
          </Field>
          <Field label={t("document")}>
            {ticket.attendee.document
              ? `${ticket.attendee.document.type} ····${ticket.attendee.document.last4}`
              : t("none")}
          </Field>
          <Field label={t("validDays")}>{ticket.valid_days.map((d) => d.name).join(", ") || "—"}</Field>
          <Field label={t("extraZones")}>
            {ticket.extra_zones.map((z) => z.name).join(", ") || t("none")}
          </Field>
          <Field label={t("wristband")}>
            {ticket.wristband ? (
              <Link
                className={textLinkClass}
                href={`/wristbands/${encodeURIComponent(ticket.wristband.nfc)}`}
              >
                {ticket.wristband.nfc}
              </Link>
            ) : (
              t("noneYet")
            )}
          </Field>
          <Field label={t("checkedIn")}>{when(ticket.checked_in_at)}</Field>
          <Field label={t("updated")}>{when(ticket.updated_at)}</Field>
        </Fields>
      </Panel>
      {canCheckIn && ticket.status === "active" && <CheckInForm code={ticket.code} onDone={update} />}
      {canCancel && ticket.status === "active" && <CancelTicket code={ticket.code} onDone={update} />}
    </div>
  );
}

function CheckInForm({ code, onDone }: { code: string; onDone: (t: Ticket) => void }) {
  const t = useTranslations("ticket");
  const checkIn = useIdempotentPost(TicketAnswer);
  const [nfc, setNfc] = useState("");
  const [uhf, setUhf] = useState("");
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (checkIn.busy || !nfc.trim()) return;
    const answer = await checkIn.send(`/api/tickets/${encodeURIComponent(code)}/check-in`, {
      nfc: nfc.trim(),
      ...(uhf.trim() ? { uhf: uhf.trim() } : {}),
    });
    if (answer) onDone(answer.ticket);
  }
  // Another code is another request: it gets a key of its own.
  const edit = (set: (value: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    checkIn.renewKey();
  };
  return (
    <Panel title={t("checkInTitle")}>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="flex items-end gap-2 max-sm:w-full">
          <label className="flex min-w-0 flex-1 flex-col text-sm">
            {t("nfc")}
            <input value={nfc} onChange={edit(setNfc)} className={inputClass} autoComplete="off" />
          </label>
          <ScanButton
            label={t("scanWristbandLabel")}
            title={t("scanWristbandTitle")}
            onCode={(code) => edit(setNfc)({ target: { value: code } })}
          />
        </div>
        <label className="flex flex-col text-sm max-sm:w-full">
          {t("uhf")}
          <input value={uhf} onChange={edit(setUhf)} className={inputClass} autoComplete="off" />
        </label>
        <button type="submit" className={primaryButtonClass} disabled={checkIn.busy || !nfc.trim()}>
          {checkIn.busy ? t("checkingIn") : t("checkIn")}
        </button>
      </form>
      <ErrorBox error={checkIn.error} className="mt-3" />
    </Panel>
  );
}

function CancelTicket({ code, onDone }: { code: string; onDone: (t: Ticket) => void }) {
  const t = useTranslations("ticket");
  const cancel = useIdempotentPost(TicketAnswer);
  const [confirming, setConfirming] = useState(false);
  async function confirm() {
    const answer = await cancel.send(`/api/tickets/${encodeURIComponent(code)}/cancel`);
    if (!answer) return;
    setConfirming(false);
    onDone(answer.ticket);
  }
  return (
    <Panel title={t("cancelTitle")}>
      {!confirming ? (
        <button type="button" className={dangerButtonClass} onClick={() => setConfirming(true)}>
          {t("cancelButton")}
        </button>
      ) : (
        <div role="alertdialog" aria-label={t("confirmLabel")} className="space-y-2">
          <p className="text-sm">
            {t.rich("confirmText", { code, b: (chunks) => <strong>{chunks}</strong> })}
          </p>
          <div className="flex gap-2">
            <button type="button" className={dangerButtonClass} disabled={cancel.busy} onClick={confirm}>
              {cancel.busy ? t("cancelling") : t("yesCancel")}
            </button>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={cancel.busy}
              onClick={() => setConfirming(false)}
            >
              {t("keep")}
            </button>
          </div>
        </div>
      )}
      <ErrorBox error={cancel.error} className="mt-3" />
    </Panel>
  );
}
