"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { inputClass, primaryButtonClass, secondaryButtonClass } from "@/components/ui/class-names";
import { Field, Fields } from "@/components/ui/fields";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox, Loading } from "@/components/ui/states";
import { fetchJson, postJson } from "@/lib/shared/api/client";
import { isConsoleError, isRetryable } from "@/lib/shared/api/errors";
import { DeskAnswer, DeskQuote, type Topup } from "@/lib/shared/api/staff";
import { formatMoney, parseAmount } from "@/lib/shared/format/money";
import { CodeForm } from "./code-form";
import { DeskNameBar, DeskNamePrompt, useDeskName } from "./desk-name";
import { useIdempotencyKey } from "./idempotent-post";
import { BalanceFields, useWristband } from "./wristband-query";

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
  const [loaded, setLoaded] = useState<string | null>(null);
  const desk = useDeskName();
  const [renaming, setRenaming] = useState(false);
  if (!desk.ready) return <Loading what="the desk" />;
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
      <CodeForm label="Wristband code" submitLabel="Load wristband" onCode={setLoaded} />
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
  const quote = useQuery({
    queryKey: ["quote", code, amounts.join(","), pendingRules.join(",")],
    enabled: direction === "topup" && canTopup && wristband.isSuccess,
    queryFn: () =>
      fetchJson(
        `/api/desk/quote?code=${encodeURIComponent(code)}&amounts=${amounts.join(",")}${pendingRules.length ? `&pending_rules=${pendingRules.join(",")}` : ""}`,
        DeskQuote,
      ),
    refetchInterval: 30_000,
  });

  if (wristband.isPending) return <Loading what="the wristband" />;
  if (wristband.isError) return <ErrorBox error={wristband.error} />;
  const { wristband: w, currency } = wristband.data;
  const money = (c: number) => formatMoney(c, currency);
  const line = amount ? quote.data?.quote.find((q) => q.amount === amount) : undefined;

  async function send(sent: Sent) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const url = sent.direction === "topup" ? "/api/desk/topups" : "/api/desk/withdrawals";
      const body =
        sent.direction === "topup"
          ? {
              code,
              amount: sent.amount,
              payment_method: sent.payment_method,
              bonus_amount: sent.bonus_amount,
              bonus_rule: sent.bonus_rule,
              idempotency_key: key,
              desk: sent.desk,
            }
          : {
              code,
              amount: sent.amount,
              payment_method: sent.payment_method,
              idempotency_key: key,
              desk: sent.desk,
            };
      const { topup } = await postJson(url, body, DeskAnswer);
      setInFlight(null);
      setConfirming(false);
      setReceipt({ sent, topup });
      renewKey();
      await queryClient.invalidateQueries({ queryKey: ["wristband", code] });
      await queryClient.invalidateQueries({ queryKey: ["quote", code] });
    } catch (err) {
      if (isRetryable(err)) {
        // Maybe charged, maybe not: the same key will tell (the upstream replays a done request).
        setInFlight(sent);
        setError(err);
      } else {
        setInFlight(null);
        renewKey();
        if (isConsoleError(err) && err.code === "bonus_mismatch") {
          await queryClient.invalidateQueries({ queryKey: ["quote", code] });
          setNotice(
            "The bonus changed since it was quoted (another top-up or a rule changed). Check the new bonus and confirm again.",
          );
          setConfirming(true);
        } else {
          setConfirming(false);
          setError(err);
        }
        await queryClient.invalidateQueries({ queryKey: ["wristband", code] });
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
      <Panel title={`Wristband ${w.nfc}`}>
        <Fields>
          <Field label="Status">{w.status.replace("_", " ")}</Field>
          <Field label="Attendee">
            {w.attendee.anonymous ? "anonymous" : <SafeText text={w.attendee.name ?? "—"} />}
          </Field>
          <BalanceFields wristband={w} money={money} testIdPrefix="desk-" />
        </Fields>
      </Panel>

      {receipt ? (
        <Panel title="Receipt">
          <Fields testId="receipt">
            <Field label="Operation">
              {receipt.sent.direction === "topup" ? "Top-up" : "Withdrawal (refund)"}
            </Field>
            <Field label="Amount">{money(receipt.topup.amount)}</Field>
            <Field label="Payment">{receipt.topup.payment_method}</Field>
            {receipt.sent.direction === "topup" && (
              <Field label="Bonus">
                {receipt.sent.bonus_amount > 0
                  ? `${money(receipt.sent.bonus_amount)} (${receipt.sent.bonus_rule_name})`
                  : "none"}
              </Field>
            )}
            <Field label="Paid balance">
              {money(receipt.topup.previous_balance)} → {money(receipt.topup.new_balance)}
            </Field>
            <Field label="Desk">
              <SafeText text={receipt.sent.desk} />
            </Field>
            <Field label="Reference">{receipt.topup.id}</Field>
          </Fields>
          <button type="button" className={`${primaryButtonClass} mt-3`} onClick={newTransaction}>
            New operation
          </button>
        </Panel>
      ) : (
        <Panel title={direction === "topup" ? "Top-up" : "Withdrawal"}>
          <form onSubmit={review} className="space-y-3">
            {canTopup && canWithdraw && (
              <fieldset className="flex gap-3 text-sm" disabled={!!inFlight || busy}>
                <legend className="sr-only">Choose the operation</legend>
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
                  Top-up
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
                  Withdrawal (refund)
                </label>
              </fieldset>
            )}
            <fieldset disabled={!!inFlight || busy} className="space-y-3">
              <legend className="sr-only">Choose the amount</legend>
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
                  Amount ({currency})
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
                  Payment
                  <select
                    value={method}
                    onChange={(e) => setMethod(e.target.value as Method)}
                    className={inputClass}
                  >
                    <option value="card">card</option>
                    <option value="cash">cash</option>
                    <option value="online">online</option>
                  </select>
                </label>
              </div>
            </fieldset>
            {!amount && <p className="text-sm text-red-800">Enter an amount, e.g. 25 or 25.50.</p>}
            {direction === "topup" && amount && (
              <div data-testid="bonus-quote" className="rounded bg-green-50 p-2 text-sm text-green-950">
                {quote.isError ? (
                  <ErrorBox error={quote.error} />
                ) : !line ? (
                  <span aria-busy="true">Quoting the bonus…</span>
                ) : (
                  <>
                    <p>
                      Bonus:{" "}
                      <strong data-testid="bonus-amount">
                        {line.bonus_amount > 0 ? money(line.bonus_amount) : "none"}
                      </strong>
                      {line.rule && ` (${line.rule.name})`}
                    </p>
                    {line.next && (
                      <p data-testid="bonus-next">
                        Add {money(line.next.amount - line.amount)} more for a {money(line.next.bonus_amount)}{" "}
                        bonus.
                      </p>
                    )}
                  </>
                )}
              </div>
            )}
            {direction === "withdraw" && (
              <p className="text-sm text-slate-700">
                Only the paid balance ({money(w.balance)}) can be refunded; the promo balance (
                {money(w.promo_balance)}) never is.
              </p>
            )}
            {!confirming && !inFlight && (
              <button
                type="submit"
                className={primaryButtonClass}
                disabled={!amount || (direction === "topup" && !line) || w.status !== "active"}
              >
                {direction === "topup" ? "Review top-up" : "Review withdrawal"}
              </button>
            )}
            {w.status !== "active" && (
              <p className="text-sm text-red-800">
                This wristband is {w.status.replace("_", " ")}: no top-ups.
              </p>
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
              aria-label="Confirm"
              className="mt-3 space-y-2 rounded border border-blue-200 p-3"
            >
              <p className="text-sm">
                {direction === "topup" ? "Charge" : "Refund"} <strong>{money(current.amount)}</strong> (
                {method})
                {direction === "topup" &&
                  (current.bonus_amount > 0 ? (
                    <>
                      {" "}
                      with a <strong data-testid="confirm-bonus">{money(current.bonus_amount)}</strong> bonus
                    </>
                  ) : (
                    " with no bonus"
                  ))}
                ?
              </p>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={primaryButtonClass}
                  disabled={busy || (direction === "topup" && (!line || quote.isFetching))}
                  onClick={() => send(current)}
                >
                  {busy ? "Sending…" : "Confirm"}
                </button>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy}
                  onClick={() => setConfirming(false)}
                >
                  Back
                </button>
              </div>
            </div>
          )}
          {inFlight && (
            <div className="mt-3 space-y-2">
              <p className="text-sm">
                The answer for {money(inFlight.amount)} did not arrive. Trying again is safe: it is never
                charged twice.
              </p>
              <button
                type="button"
                className={primaryButtonClass}
                disabled={busy}
                onClick={() => send(inFlight)}
              >
                {busy ? "Sending…" : "Try again"}
              </button>
            </div>
          )}
          {error != null && (
            <div className="mt-3">
              <ErrorBox error={error} />
              {isConsoleError(error) && error.code === "insufficient_balance" && (
                <p className="mt-1 text-sm">
                  Paid balance now: {money(w.balance)}. Withdraw at most that amount.
                </p>
              )}
            </div>
          )}
        </Panel>
      )}
    </div>
  );
}
