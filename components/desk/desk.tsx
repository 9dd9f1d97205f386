"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { inputClass, primaryButtonClass, secondaryButtonClass } from "@/components/ui/class-names";
import { Field, Fields } from "@/components/ui/fields";
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox, Loading } from "@/components/ui/states";
import { keyOf, useEndpoint, useIdempotencyKey } from "@/components/ui/use-endpoint";
import { call } from "@/lib/shared/api/call";
import { endpoints } from "@/lib/shared/api/endpoints";
import { isConsoleError, isRetryable } from "@/lib/shared/api/errors";
import type { Topup } from "@/lib/shared/api/staff";
import { formatMoney, parseAmount } from "@/lib/shared/format/money";
import { BalanceFields, useWristband } from "../gate";
import { CodeForm } from "../ui/code-form";
import { DeskNameBar, DeskNamePrompt, useDeskName } from "./desk-name";

const PRESETS = [1000, 2000, 5000, 10000];
type Direction = "topup" | "withdraw";
type Method = "card" | "cash" | "online";

interface Sent {
  /** The desk it is taken at (its `device_id`), fixed when sent: a retry sends the same. */
  desk: string;
  direction: Direction;
  amount: number;
  payment_method: Method;
  bonus_amount: number;
  bonus_rule: string | null;
  bonus_rule_name: string | null;
}

/** The top-up desk (and the refund desk): one wristband at a time. */
export function Desk({ canTopup, canWithdraw }: { canTopup: boolean; canWithdraw: boolean }) {
  const t = useTranslations("desk");
  const [loaded, setLoaded] = useState<string | null>(null);
  const desk = useDeskName();
  const [renaming, setRenaming] = useState(false);
  if (!desk.ready) return <Loading what={t("loadingDesk")} />;
  if (!desk.name || renaming)
    return (
      <DeskNamePrompt
        initial={desk.name ?? undefined}
        onName={(name) => {
          desk.set(name);
          setRenaming(false);
        }}
      />
    );
  return (
    <div className="space-y-4">
      <DeskNameBar name={desk.name} onChange={() => setRenaming(true)} />
      <CodeForm label={t("wristbandCode")} submitLabel={t("load")} onCode={setLoaded} />
      {loaded && (
        <DeskForm key={loaded} code={loaded} desk={desk.name} canTopup={canTopup} canWithdraw={canWithdraw} />
      )}
    </div>
  );
}

function DeskForm({
  code,
  desk,
  canTopup,
  canWithdraw,
}: {
  code: string;
  desk: string;
  canTopup: boolean;
  canWithdraw: boolean;
}) {
  const t = useTranslations("desk");
  const value = useValueText();
  const locale = useIntlLocale();
  const queryClient = useQueryClient();
  const wristband = useWristband(code);
  // Created when the form opens; kept across retries of the same request; renewed after a final answer.
  const [key, renewKey] = useIdempotencyKey();
  const [direction, setDirection] = useState<Direction>(canTopup ? "topup" : "withdraw");
  const [amountText, setAmountText] = useState("20.00");
  const [method, setMethod] = useState<Method>("card");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** A request whose answer never came: only "try again" (same key, same body) is offered. */
  const [inFlight, setInFlight] = useState<Sent | null>(null);
  const [receipt, setReceipt] = useState<{ sent: Sent; topup: Topup } | null>(null);

  // The event's currency says how many decimals an amount has (EUR 2, JPY 0).
  const amount = wristband.data ? parseAmount(amountText, wristband.data.currency) : null;
  const amounts = [...new Set([...PRESETS, ...(amount ? [amount] : [])])].sort((a, b) => a - b);
  const pendingRules = inFlight?.bonus_rule ? [inFlight.bonus_rule] : [];
  const quote = useEndpoint(
    endpoints.desk.quote,
    { query: { code, amounts: amounts.join(","), pending_rules: pendingRules.join(",") || undefined } },
    { enabled: direction === "topup" && canTopup && wristband.isSuccess },
  );

  if (wristband.isPending) return <Loading what={t("loadingWristband")} />;
  if (wristband.isError) return <ErrorBox error={wristband.error} />;
  const { wristband: w, currency } = wristband.data;
  const money = (c: number) => formatMoney(c, currency, locale);
  const line = amount ? quote.data?.quote.find((q) => q.amount === amount) : undefined;

  const wristbandKey = keyOf(endpoints.gate.wristband, { params: { code } });
  const quoteKey = keyOf(endpoints.desk.quote);
  async function send(sent: Sent) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      // Not useWrite: one key spans both directions and a lost answer is retried only as sent.
      const paid = { code, amount: sent.amount, payment_method: sent.payment_method, idempotency_key: key };
      const { topup } =
        sent.direction === "topup"
          ? await call(endpoints.desk.topup, {
              body: {
                ...paid,
                bonus_amount: sent.bonus_amount,
                bonus_rule: sent.bonus_rule,
                desk: sent.desk,
              },
            })
          : await call(endpoints.desk.withdrawal, { body: { ...paid, desk: sent.desk } });
      setInFlight(null);
      setConfirming(false);
      setReceipt({ sent, topup });
      renewKey();
      await queryClient.invalidateQueries({ queryKey: wristbandKey });
      await queryClient.invalidateQueries({ queryKey: quoteKey });
    } catch (err) {
      if (isRetryable(err)) {
        // Maybe charged, maybe not: the same key will tell (the upstream replays a done request).
        setInFlight(sent);
        setError(err);
      } else {
        setInFlight(null);
        renewKey();
        if (isConsoleError(err) && err.code === "bonus_mismatch") {
          await queryClient.invalidateQueries({ queryKey: quoteKey });
          setNotice(t("bonusChanged"));
          setConfirming(true);
        } else {
          setConfirming(false);
          setError(err);
        }
        await queryClient.invalidateQueries({ queryKey: wristbandKey });
      }
    } finally {
      setBusy(false);
    }
  }

  function review(e: FormEvent) {
    e.preventDefault();
    if (!amount) return;
    setError(null);
    setNotice(null);
    setConfirming(true);
  }

  function newTransaction() {
    setReceipt(null);
    setError(null);
    setNotice(null);
    renewKey();
  }

  const bonus = direction === "topup" && line ? line.bonus_amount : 0;
  const current: Sent | null = amount
    ? {
        desk,
        direction,
        amount,
        payment_method: method,
        bonus_amount: bonus,
        bonus_rule: direction === "topup" ? (line?.rule?.id ?? null) : null,
        bonus_rule_name: direction === "topup" ? (line?.rule?.name ?? null) : null,
      }
    : null;

  return (
    <div className="space-y-4">
      <Panel title={t("wristband", { nfc: w.nfc })}>
        <Fields>
          <Field label={t("status")}>{value(w.status)}</Field>
          <Field label={t("attendee")}>
            {w.attendee.anonymous ? t("anonymous") : <SafeText text={w.attendee.name ?? "—"} />}
          </Field>
          <BalanceFields wristband={w} money={money} testIdPrefix="desk-" />
        </Fields>
      </Panel>

      {receipt ? (
        <Panel title={t("receipt")}>
          <Fields testId="receipt">
            <Field label={t("operation")}>
              {receipt.sent.direction === "topup" ? t("topup") : t("withdrawalRefund")}
            </Field>
            <Field label={t("amount")}>{money(receipt.topup.amount)}</Field>
            <Field label={t("payment")}>{value(receipt.topup.payment_method)}</Field>
            {receipt.sent.direction === "topup" && (
              <Field label={t("bonus")}>
                {receipt.sent.bonus_amount > 0
                  ? t("bonusWithRule", {
                      amount: money(receipt.sent.bonus_amount),
                      rule: receipt.sent.bonus_rule_name ?? "",
                    })
                  : t("none")}
              </Field>
            )}
            <Field label={t("paidBalance")}>
              {money(receipt.topup.previous_balance)} → {money(receipt.topup.new_balance)}
            </Field>
            <Field label={t("desk")}>
              <SafeText text={receipt.sent.desk} />
            </Field>
            <Field label={t("reference")}>{receipt.topup.id}</Field>
          </Fields>
          <button type="button" className={`${primaryButtonClass} mt-3`} onClick={newTransaction}>
            {t("newOperation")}
          </button>
        </Panel>
      ) : (
        <Panel title={direction === "topup" ? t("topup") : t("withdrawal")}>
          <form onSubmit={review} className="space-y-3">
            {canTopup && canWithdraw && (
              <fieldset className="flex gap-3 text-sm" disabled={!!inFlight || busy}>
                <legend className="sr-only">{t("chooseOperation")}</legend>
                <label>
                  <input
                    type="radio"
                    name="direction"
                    checked={direction === "topup"}
                    onChange={() => {
                      setDirection("topup");
                      setConfirming(false);
                    }}
                  />{" "}
                  {t("topup")}
                </label>
                <label>
                  <input
                    type="radio"
                    name="direction"
                    checked={direction === "withdraw"}
                    onChange={() => {
                      setDirection("withdraw");
                      setConfirming(false);
                    }}
                  />{" "}
                  {t("withdrawalRefund")}
                </label>
              </fieldset>
            )}
            <fieldset disabled={!!inFlight || busy} className="space-y-3">
              <legend className="sr-only">{t("chooseAmount")}</legend>
              <div className="flex flex-wrap gap-2">
                {PRESETS.map((p) => {
                  const q = quote.data?.quote.find((x) => x.amount === p);
                  return (
                    <button
                      key={p}
                      type="button"
                      className={secondaryButtonClass}
                      aria-pressed={amount === p}
                      onClick={() => {
                        setAmountText((p / 100).toFixed(2));
                        setConfirming(false);
                      }}
                    >
                      {money(p)}
                      {direction === "topup" && q && q.bonus_amount > 0 && (
                        <span className="ml-1 text-green-800">+{money(q.bonus_amount)}</span>
                      )}
                    </button>
                  );
                })}
              </div>
              <div className="flex flex-wrap items-end gap-3">
                <label className="flex flex-col text-sm">
                  {t("amountIn", { currency })}
                  <input
                    value={amountText}
                    onChange={(e) => {
                      setAmountText(e.target.value);
                      setConfirming(false);
                    }}
                    inputMode="decimal"
                    className={inputClass}
                    autoComplete="off"
                  />
                </label>
                <label className="flex flex-col text-sm">
                  {t("payment")}
                  <select
                    value={method}
                    onChange={(e) => setMethod(e.target.value as Method)}
                    className={inputClass}
                  >
                    <option value="card">{value("card")}</option>
                    <option value="cash">{value("cash")}</option>
                    <option value="online">{value("online")}</option>
                  </select>
                </label>
              </div>
            </fieldset>
            {!amount && <p className="text-sm text-red-800">{t("amountHint")}</p>}
            {direction === "topup" && amount && (
              <div data-testid="bonus-quote" className="rounded bg-green-50 p-2 text-sm text-green-950">
                {quote.isError ? (
                  <ErrorBox error={quote.error} />
                ) : !line ? (
                  <span aria-busy="true">{t("quoting")}</span>
                ) : (
                  <>
                    <p>
                      {t.rich("bonusLabel", {
                        amount: line.bonus_amount > 0 ? money(line.bonus_amount) : t("none"),
                        rule: line.rule ? ` (${line.rule.name})` : "",
                        b: (chunks) => <strong data-testid="bonus-amount">{chunks}</strong>,
                      })}
                    </p>
                    {line.next && (
                      <p data-testid="bonus-next">
                        {t("next", {
                          more: money(line.next.amount - line.amount),
                          bonus: money(line.next.bonus_amount),
                        })}
                      </p>
                    )}
                  </>
                )}
              </div>
            )}
            {direction === "withdraw" && (
              <p className="text-sm text-slate-700">
                {t("refundOnlyPaid", { paid: money(w.balance), promo: money(w.promo_balance) })}
              </p>
            )}
            {!confirming && !inFlight && (
              <button
                type="submit"
                className={primaryButtonClass}
                disabled={!amount || (direction === "topup" && !line) || w.status !== "active"}
              >
                {direction === "topup" ? t("reviewTopup") : t("reviewWithdrawal")}
              </button>
            )}
            {w.status !== "active" && (
              <p className="text-sm text-red-800">{t("notActive", { status: value(w.status) })}</p>
            )}
          </form>

          {notice && (
            <p
              role="status"
              className="mt-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950"
            >
              {notice}
            </p>
          )}
          {confirming && current && !inFlight && (
            <div
              role="alertdialog"
              aria-label={t("confirmLabel")}
              className="mt-3 space-y-2 rounded border border-blue-200 p-3"
            >
              <p className="text-sm">
                {t.rich(
                  direction !== "topup"
                    ? "refund"
                    : current.bonus_amount > 0
                      ? "chargeBonus"
                      : "chargeNoBonus",
                  {
                    amount: money(current.amount),
                    method: value(method),
                    bonus: money(current.bonus_amount),
                    b: (chunks) => <strong>{chunks}</strong>,
                    bonusTag: (chunks) => <strong data-testid="confirm-bonus">{chunks}</strong>,
                  },
                )}
              </p>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={primaryButtonClass}
                  disabled={busy || (direction === "topup" && (!line || quote.isFetching))}
                  onClick={() => send(current)}
                >
                  {busy ? t("sending") : t("confirm")}
                </button>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy}
                  onClick={() => setConfirming(false)}
                >
                  {t("back")}
                </button>
              </div>
            </div>
          )}
          {inFlight && (
            <div className="mt-3 space-y-2">
              <p className="text-sm">{t("lostAnswer", { amount: money(inFlight.amount) })}</p>
              <button
                type="button"
                className={primaryButtonClass}
                disabled={busy}
                onClick={() => send(inFlight)}
              >
                {busy ? t("sending") : t("tryAgain")}
              </button>
            </div>
          )}
          {error != null && (
            <div className="mt-3">
              <ErrorBox error={error} />
              {isConsoleError(error) && error.code === "insufficient_balance" && (
                <p className="mt-1 text-sm">{t("paidNow", { amount: money(w.balance) })}</p>
              )}
            </div>
          )}
        </Panel>
      )}
    </div>
  );
}
