"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import {
  dangerButtonClass,
  inputClass,
  joinClasses,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from "@/components/ui/class-names";
import { Field, Fields } from "@/components/ui/fields";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox, Loading } from "@/components/ui/states";
import { keyOf, useEndpoint, useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { Ticket, TicketView as TicketViewAnswer } from "@/lib/shared/api/staff";
import { normalizeCode } from "@/lib/shared/codes";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { dateTime } from "@/lib/shared/format/time";
import { ticketVerdict } from "@/lib/shared/gate-verdict";
import { intlLocale, type Locale } from "@/lib/shared/i18n/locales";
import { ScanButton } from "./scan-button";
import { StatusBadge } from "./status-badge";
import { GateZonePicker, useGateContext, VerdictPanel } from "./verdict-view";

export function TicketView({
  code,
  canCheckIn,
  canOverride,
  canCancel,
}: {
  code: string;
  canCheckIn: boolean;
  /** May check a ticket in on a day it is not valid for (tickets.checkin_override). */
  canOverride: boolean;
  canCancel: boolean;
}) {
  const t = useTranslations("ticket");
  const query = useEndpoint(endpoints.gate.ticket, { params: { code } });
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  return (
    <TicketScreen
      code={code}
      view={query.data}
      can={{ checkIn: canCheckIn, override: canOverride, cancel: canCancel }}
    />
  );
}

/** The ticket with its verdict for today first, then its details, then what staff may do with it. */
function TicketScreen({
  code,
  view,
  can,
}: {
  code: string;
  view: TicketViewAnswer;
  can: { checkIn: boolean; override: boolean; cancel: boolean };
}) {
  const t = useTranslations("ticket");
  const locale = intlLocale(useLocale() as Locale);
  const queryClient = useQueryClient();
  const gate = useGateContext(view.gate);
  const { ticket, timeZone } = view;
  const verdict = ticketVerdict(ticket, gate, view.typeZoneIds);
  const update = (next: Ticket) =>
    queryClient.setQueryData(keyOf(endpoints.gate.ticket, { params: { code } }), {
      ...view,
      ticket: next,
    } satisfies TicketViewAnswer);
  const when = (at: string | null) => (at ? dateTime(at, timeZone, locale) : "—");
  const names = (refs: { name: string }[]) => refs.map((r) => r.name).join(", ");
  const active = ticket.status === "active";
  return (
    <div className="space-y-4">
      <VerdictPanel verdict={verdict} timeZone={timeZone} />
      <GateZonePicker zones={view.gate.zones} zone={gate.gateZone} onChange={gate.chooseZone} />
      <Panel title={t("title", { code: escapeBidi(ticket.code) })}>
        <Fields>
          <Field label={t("status")}>
            <StatusBadge status={ticket.status} />
          </Field>
          <Field label={t("type")}>
            <SafeText text={ticket.ticket_type.name} />
          </Field>
          <Field label={t("attendee")}>
            <SafeText text={ticket.attendee.name} /> · <SafeText text={ticket.attendee.email} />
          </Field>
          <Field label={t("document")}>
            {ticket.attendee.document ? (
              <>
                <SafeText text={ticket.attendee.document.type} /> ····{ticket.attendee.document.last4}
              </>
            ) : (
              t("noDocument")
            )}
          </Field>
          <Field label={t("validDays")}>
            <SafeText text={names(ticket.valid_days) || "—"} />
          </Field>
          <Field label={t("extraZones")}>
            {ticket.extra_zones.length ? <SafeText text={names(ticket.extra_zones)} /> : t("noExtraZones")}
          </Field>
          <Field label={t("wristband")}>
            {ticket.wristband ? (
              <Link
                className={textLinkClass}
                href={`/wristbands/${encodeURIComponent(ticket.wristband.nfc)}`}
              >
                <SafeText text={ticket.wristband.nfc} />
              </Link>
            ) : (
              t("noneYet")
            )}
          </Field>
          <Field label={t("checkedIn")}>{when(ticket.checked_in_at)}</Field>
          <Field label={t("updated")}>{when(ticket.updated_at)}</Field>
        </Fields>
      </Panel>
      {can.checkIn && active && verdict.kind !== "not_valid_today" && (
        <CheckInForm code={ticket.code} onDone={update} />
      )}
      {can.checkIn && active && verdict.kind === "not_valid_today" && (
        <WrongDayCheckIn
          code={ticket.code}
          days={verdict.validDays.map((d) => escapeBidi(d.name)).join(", ") || t("noValidDays")}
          canOverride={can.override}
          onDone={update}
        />
      )}
      {can.cancel && active && <CancelTicket code={ticket.code} onDone={update} />}
    </div>
  );
}

/**
 * The check-in form: the wristband's NFC (typed or scanned) and UHF. With `override`, it is the
 * second step of "Check in anyway" on a day the ticket is not valid for: it says so, names the
 * valid days, and sends the override (the server refuses it to roles that may not).
 */
function CheckInForm({
  code,
  onDone,
  override,
}: {
  code: string;
  onDone: (t: Ticket) => void;
  override?: { days: string; onBack: () => void };
}) {
  const t = useTranslations("ticket");
  const checkIn = useWrite(endpoints.gate.checkIn, { idempotent: true });
  const [nfc, setNfc] = useState("");
  const [uhf, setUhf] = useState("");
  async function submit(e: FormEvent) {
    e.preventDefault();
    const wristband = normalizeCode(nfc);
    if (checkIn.busy || !wristband) return;
    const answer = await checkIn.send({
      params: { code },
      body: {
        nfc: wristband,
        ...(normalizeCode(uhf) ? { uhf: normalizeCode(uhf) } : {}),
        ...(override ? { override: true } : {}),
      },
    });
    if (answer) onDone(answer.ticket);
  }
  // Another code is another request: it gets a key of its own.
  const edit = (set: (value: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    checkIn.renewKey();
  };
  const submitLabel = override ? t("checkInAnyway") : t("checkIn");
  return (
    <Panel title={override ? t("wrongDayTitle") : t("checkInTitle")} id="check-in">
      {override && (
        <p className="mb-3 text-sm">
          {t.rich("checkInAnywayConfirm", {
            code,
            days: override.days,
            b: (chunks) => <strong>{chunks}</strong>,
          })}
        </p>
      )}
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="flex items-end gap-2 max-sm:w-full">
          <label className="flex min-w-0 flex-1 flex-col text-sm">
            {t("nfc")}
            <input value={nfc} onChange={edit(setNfc)} className={inputClass} autoComplete="off" />
          </label>
          <ScanButton
            label={t("scanWristbandLabel")}
            title={t("scanWristbandTitle")}
            onCode={(code) => edit(setNfc)({ target: { value: normalizeCode(code) } })}
          />
        </div>
        <label className="flex flex-col text-sm max-sm:w-full">
          {t("uhf")}
          <input value={uhf} onChange={edit(setUhf)} className={inputClass} autoComplete="off" />
        </label>
        <button
          type="submit"
          className={override ? dangerButtonClass : primaryButtonClass}
          disabled={checkIn.busy || !normalizeCode(nfc)}
        >
          {checkIn.busy ? t("checkingIn") : submitLabel}
        </button>
        {override && (
          <button type="button" className={secondaryButtonClass} onClick={override.onBack}>
            {t("back")}
          </button>
        )}
      </form>
      <ErrorBox error={checkIn.error} className="mt-3" />
    </Panel>
  );
}

/**
 * A ticket not valid today: check-in is not the main action. Supervisors and managers get an
 * explicit second step ("Check in anyway…", then the form naming the valid days); staff are told
 * who can.
 */
function WrongDayCheckIn({
  code,
  days,
  canOverride,
  onDone,
}: {
  code: string;
  days: string;
  canOverride: boolean;
  onDone: (t: Ticket) => void;
}) {
  const t = useTranslations("ticket");
  const [step, setStep] = useState<"ask" | "form">("ask");
  if (canOverride && step === "form")
    return <CheckInForm code={code} onDone={onDone} override={{ days, onBack: () => setStep("ask") }} />;
  return (
    <Panel title={t("wrongDayTitle")} id="check-in">
      <p className="text-sm">{canOverride ? t("wrongDayIntro") : t("wrongDayStaff")}</p>
      {canOverride && (
        <button
          type="button"
          className={joinClasses(secondaryButtonClass, "mt-3")}
          onClick={() => setStep("form")}
        >
          {t("checkInAnywayStart")}
        </button>
      )}
    </Panel>
  );
}

function CancelTicket({ code, onDone }: { code: string; onDone: (t: Ticket) => void }) {
  const t = useTranslations("ticket");
  const cancel = useWrite(endpoints.gate.cancel, { idempotent: true });
  const [confirming, setConfirming] = useState(false);
  async function confirm() {
    const answer = await cancel.send({ params: { code } });
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
