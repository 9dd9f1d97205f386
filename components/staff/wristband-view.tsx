"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { SalesPage, WristbandView as WristbandData } from "@/lib/bff/staff";
import { formatMoney } from "@/lib/format/money";
import { StatusBadge } from "./ticket-view";
import { Card, ErrorBox, Field, formatTime, secondaryButton } from "./ui";

export function WristbandView({ code }: { code: string }) {
  const query = useQuery({
    queryKey: ["wristband", code],
    queryFn: () => fetchJson<WristbandData>(`/api/wristbands/${encodeURIComponent(code)}`),
  });
  if (query.isPending) return <p aria-busy="true">Loading the wristband…</p>;
  if (query.isError) return <ErrorBox error={query.error} />;
  const { wristband: w, currency, timeZone, days, topups } = query.data;
  const money = (c: number) => formatMoney(c, currency);
  const dayName = (id: string) => days.find((d) => d.id === id)?.name ?? id;
  return (
    <div className="space-y-4">
      <Card title={`Wristband ${w.nfc}`}>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <Field label="Status">
            <StatusBadge status={w.status} />
          </Field>
          <Field label="Paid balance">
            <span data-testid="paid-balance">{money(w.balance)}</span>
          </Field>
          <Field label="Promo balance">
            <span data-testid="promo-balance">{money(w.promo_balance)}</span>
          </Field>
          <Field label="UHF">{w.uhf ?? "—"}</Field>
          <Field label="Attendee">{w.attendee.anonymous ? "anonymous" : (w.attendee.name ?? "—")}</Field>
          <Field label="Ticket">
            {w.ticket ? (
              <Link
                className="text-blue-700 underline"
                href={`/tickets/${encodeURIComponent(w.ticket.code)}`}
              >
                {w.ticket.code}
              </Link>
            ) : (
              "none"
            )}
            {w.ticket && ` (${w.ticket.ticket_type})`}
          </Field>
          <Field label="Allowed zones">{w.allowed_zones.map((z) => z.name).join(", ") || "none"}</Field>
          <Field label="Valid days">{w.valid_days.map(dayName).join(", ") || "—"}</Field>
        </dl>
      </Card>
      <Sales code={w.nfc} currency={currency} timeZone={timeZone} />
      <Card title="Top-ups">
        {topups.length === 0 ? (
          <p className="text-sm text-slate-600">No top-ups yet (the list follows the sync, within 30 s).</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200">
                <th className="py-1">When</th>
                <th>Direction</th>
                <th>Nature</th>
                <th>Method</th>
                <th>Status</th>
                <th className="text-right">Amount</th>
                <th className="text-right">Balance after</th>
              </tr>
            </thead>
            <tbody>
              {topups.map((t) => (
                <tr key={t.id} className="border-b border-slate-100">
                  <td className="py-1">{formatTime(t.occurred_at, timeZone)}</td>
                  <td>{t.direction}</td>
                  <td>{t.nature}</td>
                  <td>{t.payment_method}</td>
                  <td>{t.status}</td>
                  <td className="text-right">{money(t.amount)}</td>
                  <td className="text-right">{money(t.new_balance)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}

function Sales({ code, currency, timeZone }: { code: string; currency: string; timeZone: string }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors[cursors.length - 1];
  const query = useQuery({
    queryKey: ["wristband-sales", code, after],
    queryFn: () =>
      fetchJson<SalesPage>(
        `/api/wristbands/${encodeURIComponent(code)}/sales${after ? `?starting_after=${after}` : ""}`,
      ),
  });
  const money = (c: number) => formatMoney(c, currency);
  return (
    <Card title="Sales">
      {query.isPending && <p aria-busy="true">Loading sales…</p>}
      {query.isError && <ErrorBox error={query.error} />}
      {query.data && (
        <>
          {query.data.data.length === 0 && <p className="text-sm text-slate-600">No sales.</p>}
          <ul className="space-y-2">
            {query.data.data.map((s) => (
              <li key={s.id} className="rounded border border-slate-100 p-2 text-sm">
                <div className="flex flex-wrap justify-between gap-2">
                  <span>
                    {formatTime(s.occurred_at, timeZone)} · {s.type} · {s.payment_method} · {s.status}
                  </span>
                  <strong>{money(s.total)}</strong>
                </div>
                <ul className="ml-4 list-disc text-slate-700">
                  {s.items.map((item, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: items have no id of their own
                    <li key={i}>
                      {item.quantity} × {item.name} ({money(item.unit_price)})
                      {item.included_quantity > 0 && `, ${item.included_quantity} included`} ={" "}
                      {money(item.charged_amount)}
                    </li>
                  ))}
                </ul>
                <p className="text-xs text-slate-600">
                  Base {money(s.total_base)} · taxes{" "}
                  {s.tax_breakdown.map((t) => `${t.tax_type} ${t.rate}% ${money(t.amount)}`).join(", ") ||
                    "none"}
                </p>
              </li>
            ))}
          </ul>
          <div className="mt-3 flex gap-2">
            <button
              type="button"
              className={secondaryButton}
              disabled={cursors.length === 0}
              onClick={() => setCursors((c) => c.slice(0, -1))}
            >
              Previous sales
            </button>
            <button
              type="button"
              className={secondaryButton}
              disabled={!query.data.has_more || !query.data.next_cursor}
              onClick={() => setCursors((c) => [...c, query.data.next_cursor!])}
            >
              More sales
            </button>
          </div>
        </>
      )}
    </Card>
  );
}
