"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { primaryButtonClass, secondaryButtonClass, textLinkClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { ErrorBox, Loading } from "@/components/ui/states";
import { fetchJson } from "@/lib/shared/api/client";
import { KeepAnswer, type ReviewPair, ReviewView, type Wristband } from "@/lib/shared/api/staff";
import { formatMoney } from "@/lib/shared/format/money";
import { timeOfDay } from "@/lib/shared/format/time";
import { useIdempotentPost } from "./idempotent-post";

function waited(since: string, now: number) {
  const minutes = Math.max(0, Math.floor((now - new Date(since).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

/** Paid and promo balance of the wristbands other than `kept` (what keeping it moves onto it). */
function movedTo(kept: Wristband, pair: ReviewPair) {
  const others = pair.members.filter((m) => m.id !== kept.id);
  return {
    paid: others.reduce((s, o) => s + o.balance, 0),
    promo: others.reduce((s, o) => s + o.promo_balance, 0),
  };
}

/** Wristbands in pending_review, by the ticket they compete for; refreshed every 30 s. */
export function ReviewQueue({ canResolve }: { canResolve: boolean }) {
  const query = useQuery({
    queryKey: ["review"],
    queryFn: () => fetchJson("/api/review", ReviewView),
    refetchInterval: 30_000,
  });
  if (query.isPending) return <Loading what="the review queue" />;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { pairs, currency, refreshedAt, timeZone } = query.data;
  const now = new Date(refreshedAt).getTime();
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        {pairs.length} pair(s) waiting · refreshed every 30 s (last {timeOfDay(refreshedAt, timeZone)})
      </p>
      {pairs.length === 0 && <p>Nothing waits for review.</p>}
      {pairs.map((pair) => (
        <Pair
          key={pair.ticket_code ?? pair.members[0]!.id}
          pair={pair}
          money={(c) => formatMoney(c, currency)}
          now={now}
          canResolve={canResolve}
        />
      ))}
    </div>
  );
}

function Pair({
  pair,
  money,
  now,
  canResolve,
}: {
  pair: ReviewPair;
  money: (minor: number) => string;
  now: number;
  canResolve: boolean;
}) {
  const queryClient = useQueryClient();
  const keep = useIdempotentPost(KeepAnswer);
  const [choice, setChoice] = useState<Wristband | null>(null);
  const [done, setDone] = useState<{ kept: Wristband; moved: number; movedPromo: number } | null>(null);
  const title = `Ticket ${pair.ticket_code ?? "—"}`;

  async function confirmKeep(w: Wristband) {
    const moving = movedTo(w, pair);
    const answer = await keep.send(`/api/review/${encodeURIComponent(w.nfc)}/keep`);
    if (!answer) return;
    setDone({ kept: answer.wristband, moved: moving.paid, movedPromo: moving.promo });
    setChoice(null);
  }

  if (done)
    return (
      <Panel title={title}>
        <p role="status" className="text-sm">
          Kept <strong>{done.kept.nfc}</strong>: {money(done.moved)} paid and {money(done.movedPromo)} promo
          balance moved to it. Its balances are now {money(done.kept.balance)} paid and{" "}
          {money(done.kept.promo_balance)} promo.
        </p>
        <button
          type="button"
          className={`${secondaryButtonClass} mt-2`}
          onClick={() => queryClient.invalidateQueries({ queryKey: ["review"] })}
        >
          Done
        </button>
      </Panel>
    );

  const moving = choice ? movedTo(choice, pair) : null;
  return (
    <Panel title={title}>
      <p className="mb-2 text-sm">
        Attendee: <strong>{pair.attendee ? <SafeText text={pair.attendee} /> : "anonymous"}</strong> · waiting
        for {waited(pair.since, now)}
        {pair.ticket_code && (
          <>
            {" "}
            ·{" "}
            <Link className={textLinkClass} href={`/tickets/${encodeURIComponent(pair.ticket_code)}`}>
              open the ticket
            </Link>
          </>
        )}
      </p>
      <DataTable
        caption={`Wristbands of ${title.toLowerCase()}`}
        hiddenCaption
        columns={[
          "Wristband",
          "Status",
          numeric("Paid"),
          numeric("Promo"),
          { label: "Decision", hiddenLabel: true, numeric: true },
        ]}
        rows={pair.members.map((w) => ({
          key: w.id,
          cells: [
            <Link key="nfc" className={textLinkClass} href={`/wristbands/${encodeURIComponent(w.nfc)}`}>
              {w.nfc}
            </Link>,
            w.status.replace("_", " "),
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
                Keep {w.nfc}…
              </button>
            ),
          ],
        }))}
      />
      {choice && moving && (
        <div
          role="alertdialog"
          aria-label="Confirm keep"
          className="mt-3 space-y-2 rounded border border-blue-200 p-3 text-sm"
        >
          <p>
            Keep <strong>{choice.nfc}</strong>? The other wristband(s) get blocked and{" "}
            <strong data-testid="moving-paid">{money(moving.paid)}</strong> paid and{" "}
            <strong>{money(moving.promo)}</strong> promo balance move to it.
          </p>
          <div className="flex gap-2">
            <button
              type="button"
              className={primaryButtonClass}
              disabled={keep.busy}
              onClick={() => confirmKeep(choice)}
            >
              {keep.busy ? "Keeping…" : "Yes, keep this one"}
            </button>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={keep.busy}
              onClick={() => setChoice(null)}
            >
              Back
            </button>
          </div>
        </div>
      )}
      <ErrorBox error={keep.error} className="mt-3" />
    </Panel>
  );
}
