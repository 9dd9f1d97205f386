"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { ReviewPair, ReviewView, Wristband } from "@/lib/bff/staff";
import { formatMoney } from "@/lib/format/money";
import { button, Card, ErrorBox, isRetryable, postJson, secondaryButton, useIdempotencyKey } from "./ui";

function waited(since: string, now: number) {
  const minutes = Math.max(0, Math.floor((now - new Date(since).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days`;
}

/** Wristbands in pending_review, by the ticket they compete for; refreshed every 30 s. */
export function ReviewQueue({ canResolve }: { canResolve: boolean }) {
  const query = useQuery({
    queryKey: ["review"],
    queryFn: () => fetchJson<ReviewView>("/api/review"),
    refetchInterval: 30_000,
  });
  if (query.isPending) return <p aria-busy="true">Loading the review queue…</p>;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { pairs, currency, refreshedAt } = query.data;
  const now = new Date(refreshedAt).getTime();
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        {pairs.length} pair(s) waiting · refreshed every 30 s (last{" "}
        {new Date(refreshedAt).toLocaleTimeString("en-GB")})
      </p>
      {pairs.length === 0 && <p>Nothing waits for review.</p>}
      {pairs.map((pair) => (
        <Pair
          key={pair.ticket_code ?? pair.members[0]!.id}
          pair={pair}
          currency={currency}
          now={now}
          canResolve={canResolve}
        />
      ))}
    </div>
  );
}

function Pair({
  pair,
  currency,
  now,
  canResolve,
}: {
  pair: ReviewPair;
  currency: string;
  now: number;
  canResolve: boolean;
}) {
  const queryClient = useQueryClient();
  const [key, renewKey] = useIdempotencyKey();
  const [choice, setChoice] = useState<Wristband | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<{ kept: Wristband; moved: number; movedPromo: number } | null>(null);
  const money = (c: number) => formatMoney(c, currency);
  const title = `Ticket ${pair.ticket_code ?? "—"}`;

  async function keep(w: Wristband) {
    setBusy(true);
    setError(null);
    const others = pair.members.filter((m) => m.id !== w.id);
    try {
      const { wristband } = await postJson<{ wristband: Wristband }>(
        `/api/review/${encodeURIComponent(w.nfc)}/keep`,
        {
          idempotency_key: key,
        },
      );
      renewKey();
      setDone({
        kept: wristband,
        moved: others.reduce((s, o) => s + o.balance, 0),
        movedPromo: others.reduce((s, o) => s + o.promo_balance, 0),
      });
      setChoice(null);
    } catch (err) {
      if (!isRetryable(err)) renewKey();
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (done)
    return (
      <Card title={title}>
        <p role="status" className="text-sm">
          Kept <strong>{done.kept.nfc}</strong>: {money(done.moved)} paid and {money(done.movedPromo)} promo
          balance moved to it. Its balances are now {money(done.kept.balance)} paid and{" "}
          {money(done.kept.promo_balance)} promo.
        </p>
        <button
          type="button"
          className={`${secondaryButton} mt-2`}
          onClick={() => queryClient.invalidateQueries({ queryKey: ["review"] })}
        >
          Done
        </button>
      </Card>
    );

  return (
    <Card title={title}>
      <p className="mb-2 text-sm">
        Attendee: <strong>{pair.attendee ?? "anonymous"}</strong> · waiting for {waited(pair.since, now)}
        {pair.ticket_code && (
          <>
            {" "}
            ·{" "}
            <Link
              className="text-blue-700 underline"
              href={`/tickets/${encodeURIComponent(pair.ticket_code)}`}
            >
              open the ticket
            </Link>
          </>
        )}
      </p>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200">
            <th className="py-1">Wristband</th>
            <th>Status</th>
            <th className="text-right">Paid</th>
            <th className="text-right">Promo</th>
            <th>
              <span className="sr-only">Decision</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {pair.members.map((w) => (
            <tr key={w.id} className="border-b border-slate-100">
              <td className="py-1">
                <Link className="text-blue-700 underline" href={`/wristbands/${encodeURIComponent(w.nfc)}`}>
                  {w.nfc}
                </Link>
              </td>
              <td>{w.status.replace("_", " ")}</td>
              <td className="text-right">{money(w.balance)}</td>
              <td className="text-right">{money(w.promo_balance)}</td>
              <td className="text-right">
                {canResolve && (
                  <button
                    type="button"
                    className={secondaryButton}
                    disabled={busy}
                    onClick={() => setChoice(w)}
                  >
                    Keep {w.nfc}…
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {choice && (
        <div
          role="alertdialog"
          aria-label="Confirm keep"
          className="mt-3 space-y-2 rounded border border-blue-200 p-3 text-sm"
        >
          <p>
            Keep <strong>{choice.nfc}</strong>? The other wristband(s) get blocked and{" "}
            <strong data-testid="moving-paid">
              {money(pair.members.filter((m) => m.id !== choice.id).reduce((s, o) => s + o.balance, 0))}
            </strong>{" "}
            paid and{" "}
            <strong>
              {money(pair.members.filter((m) => m.id !== choice.id).reduce((s, o) => s + o.promo_balance, 0))}
            </strong>{" "}
            promo balance move to it.
          </p>
          <div className="flex gap-2">
            <button type="button" className={button} disabled={busy} onClick={() => keep(choice)}>
              {busy ? "Keeping…" : "Yes, keep this one"}
            </button>
            <button type="button" className={secondaryButton} disabled={busy} onClick={() => setChoice(null)}>
              Back
            </button>
          </div>
        </div>
      )}
      {error != null && (
        <div className="mt-3">
          <ErrorBox error={error} />
        </div>
      )}
    </Card>
  );
}
