"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { primaryButtonClass, secondaryButtonClass, textLinkClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox, Loading } from "@/components/ui/states";
import { keyOf, useEndpoint, useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { ReviewPair, Wristband } from "@/lib/shared/api/staff";
import { formatMoney } from "@/lib/shared/format/money";
import { timeOfDay } from "@/lib/shared/format/time";

function waited(t: ReturnType<typeof useTranslations<"review">>, since: string, now: number) {
  const minutes = Math.max(0, Math.floor((now - new Date(since).getTime()) / 60_000));
  if (minutes < 60) return t("minutes", { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t("hours", { hours, minutes: minutes % 60 });
  return t("days", { days: Math.floor(hours / 24) });
}

/** Paid and promo balance of the wristbands other than `kept` (what keeping it moves onto it). */
function movedTo(kept: Wristband, pair: ReviewPair) {
  const others = pair.members.filter((m) => m.id !== kept.id);
  return {
    paid: others.reduce((s, o) => s + o.balance, 0),
    promo: others.reduce((s, o) => s + o.promo_balance, 0),
  };
}

/** A pair resolved from this screen: what was kept and moved, shown until "Done". */
interface KeptPair {
  key: string;
  title: string;
  kept: Wristband;
  moved: number;
  movedPromo: number;
}

const pairKey = (pair: ReviewPair) => pair.ticket_code ?? pair.members[0]!.id;

/**
 * Wristbands in pending_review, by the ticket they compete for; refreshed every 30 s. What was kept
 * stays on screen until "Done", even after a refresh no longer lists its pair.
 */
export function ReviewQueue({ canResolve }: { canResolve: boolean }) {
  const t = useTranslations("review");
  const locale = useIntlLocale();
  const queryClient = useQueryClient();
  const query = useEndpoint(endpoints.review.queue, {});
  const [kept, setKept] = useState<KeptPair[]>([]);
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { pairs, currency, refreshedAt, timeZone } = query.data;
  const now = new Date(refreshedAt).getTime();
  const money = (minor: number) => formatMoney(minor, currency, locale);
  const keptKeys = new Set(kept.map((k) => k.key));
  const waiting = pairs.filter((pair) => !keptKeys.has(pairKey(pair)));
  const dismiss = (key: string) => {
    setKept((list) => list.filter((k) => k.key !== key));
    queryClient.invalidateQueries({ queryKey: keyOf(endpoints.review.queue) });
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        {t("waiting", { count: waiting.length, time: timeOfDay(refreshedAt, timeZone) })}
      </p>
      {kept.map((k) => (
        <KeptNotice key={k.key} kept={k} money={money} onDone={() => dismiss(k.key)} />
      ))}
      {waiting.length === 0 && <p>{t("nothing")}</p>}
      {waiting.map((pair) => (
        <Pair
          key={pairKey(pair)}
          pair={pair}
          money={money}
          now={now}
          canResolve={canResolve}
          onKept={(done) => setKept((list) => [...list, { key: pairKey(pair), ...done }])}
        />
      ))}
    </div>
  );
}

function KeptNotice({
  kept,
  money,
  onDone,
}: {
  kept: KeptPair;
  money: (minor: number) => string;
  onDone: () => void;
}) {
  const t = useTranslations("review");
  return (
    <Panel title={kept.title}>
      <p role="status" className="text-sm">
        {t.rich("kept", {
          nfc: kept.kept.nfc,
          paid: money(kept.moved),
          promo: money(kept.movedPromo),
          balance: money(kept.kept.balance),
          promoBalance: money(kept.kept.promo_balance),
          b: (chunks) => <strong>{chunks}</strong>,
        })}
      </p>
      <button type="button" className={`${secondaryButtonClass} mt-2`} onClick={onDone}>
        {t("done")}
      </button>
    </Panel>
  );
}

function Pair({
  pair,
  money,
  now,
  canResolve,
  onKept,
}: {
  pair: ReviewPair;
  money: (minor: number) => string;
  now: number;
  canResolve: boolean;
  onKept: (done: Omit<KeptPair, "key">) => void;
}) {
  const t = useTranslations("review");
  const value = useValueText();
  const keep = useWrite(endpoints.review.keep, { idempotent: true });
  const [choice, setChoice] = useState<Wristband | null>(null);
  const title = t("title", { code: pair.ticket_code ?? "—" });

  async function confirmKeep(w: Wristband) {
    const moving = movedTo(w, pair);
    const answer = await keep.send({ params: { code: w.nfc } });
    if (!answer) return;
    onKept({ title, kept: answer.wristband, moved: moving.paid, movedPromo: moving.promo });
  }

  const moving = choice ? movedTo(choice, pair) : null;
  return (
    <Panel title={title}>
      <p className="mb-2 text-sm">
        {t.rich("attendee", {
          waited: waited(t, pair.since, now),
          b: () => <strong>{pair.attendee ? <SafeText text={pair.attendee} /> : t("anonymous")}</strong>,
        })}
        {pair.ticket_code && (
          <>
            {" "}
            ·{" "}
            <Link className={textLinkClass} href={`/tickets/${encodeURIComponent(pair.ticket_code)}`}>
              {t("openTicket")}
            </Link>
          </>
        )}
      </p>
      <DataTable
        caption={t("caption", { code: pair.ticket_code ?? "—" })}
        hiddenCaption
        columns={[
          t("wristband"),
          t("status"),
          numeric(t("paid")),
          numeric(t("promo")),
          { label: t("decision"), hiddenLabel: true, numeric: true },
        ]}
        rows={pair.members.map((w) => ({
          key: w.id,
          cells: [
            <Link key="nfc" className={textLinkClass} href={`/wristbands/${encodeURIComponent(w.nfc)}`}>
              <SafeText text={w.nfc} />
            </Link>,
            value(w.status),
            money(w.balance),
            money(w.promo_balance),
            canResolve && (
              <button
                key="keep"
                type="button"
                className={secondaryButtonClass}
                disabled={keep.busy}
                onClick={() => setChoice(w)}
              >
                {t("keep", { nfc: w.nfc })}
              </button>
            ),
          ],
        }))}
      />
      {choice && moving && (
        <div
          role="alertdialog"
          aria-label={t("confirmLabel")}
          className="mt-3 space-y-2 rounded border border-blue-200 p-3 text-sm"
        >
          <p>
            {t.rich("confirm", {
              nfc: choice.nfc,
              paid: money(moving.paid),
              promo: money(moving.promo),
              b: (chunks) => <strong>{chunks}</strong>,
              moving: (chunks) => <strong data-testid="moving-paid">{chunks}</strong>,
            })}
          </p>
          <div className="flex gap-2">
            <button
              type="button"
              className={primaryButtonClass}
              disabled={keep.busy}
              onClick={() => confirmKeep(choice)}
            >
              {keep.busy ? t("keeping") : t("yesKeep")}
            </button>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={keep.busy}
              onClick={() => setChoice(null)}
            >
              {t("back")}
            </button>
          </div>
        </div>
      )}
      <ErrorBox error={keep.error} className="mt-3" />
    </Panel>
  );
}
