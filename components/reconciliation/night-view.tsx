"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  AsOf,
  DataTable,
  DayPicker,
  Empty,
  eventFormat,
  LiveError,
  Loading,
  Panel,
  Stat,
} from "@/components/live/common";
import { fetchJson } from "@/lib/bff/fetch-json";
import type { NightReport, Signoff, SignoffRequest } from "@/lib/bff/reconciliation";
import { minorDigits } from "@/lib/live/money";
import { dateTime } from "@/lib/live/time";
import { parseMajor } from "@/lib/reconciliation/arithmetic";

const btn =
  "rounded border border-slate-300 bg-white px-3 py-1 text-sm enabled:hover:bg-slate-100 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-blue-700";

/** Night reconciliation (issue #7): a night's figures, checksum, late arrivals, sign-off and drift. */
export function NightView({ canSign }: { canSign: boolean }) {
  const [dayId, setDayId] = useState<string | null>(null);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ["reconciliation", dayId],
    queryFn: () =>
      fetchJson<NightReport>(`/api/reconciliation${dayId ? `?day_id=${encodeURIComponent(dayId)}` : ""}`),
    placeholderData: keepPreviousData,
  });
  const resync = useMutation({
    mutationFn: (day: string) =>
      fetchJson(`/api/reconciliation/resync`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ day_id: day }),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["reconciliation"] }),
  });
  if (query.isPending) return <Loading what="the night" />;
  if (query.isError && !query.data) return <LiveError error={query.error} what="the night" />;
  const data = query.data as NightReport;
  if (!data.day || !data.figures) return <Empty>The event has no nights yet.</Empty>;
  const { money, timeZone } = eventFormat(data);
  const at = (iso: string) => dateTime(iso, timeZone);
  const f = data.figures;
  const day = data.day;
  const c = data.checksum;

  return (
    <div className="space-y-6" data-testid="night">
      <style>{`@media print { nav, header, search, [role=search], .no-print { display: none !important; } body { background: white; } section { break-inside: avoid; } }`}</style>
      <AsOf ctx={data} fetching={query.isFetching} />
      <div className="no-print flex flex-wrap items-center gap-4">
        <DayPicker days={data.days} value={day.id} onChange={setDayId} />
        <a
          href={`/api/reconciliation/export?day_id=${encodeURIComponent(day.id)}`}
          download
          className={`${btn} mb-4`}
        >
          Export the night as CSV
        </a>
        <button type="button" className={`${btn} mb-4`} onClick={() => window.print()}>
          Print report
        </button>
      </div>
      <p className="text-sm text-slate-700" data-testid="night-window">
        {day.name}: {at(day.starts_at)} – {at(day.ends_at)} ({timeZone}){data.ended ? "" : " — still running"}
      </p>

      {data.drift && (
        <section
          role="alert"
          aria-labelledby="drift-title"
          className="rounded border border-amber-300 bg-amber-50 p-4"
          data-testid="drift"
        >
          <h2 id="drift-title" className="font-semibold text-amber-950">
            Changed since sign-off: {data.drift.sales_count >= 0 ? "+" : ""}
            {data.drift.sales_count} sales, {data.drift.sales_total >= 0 ? "+" : ""}
            {money(data.drift.sales_total)}
          </h2>
          <DataTable
            caption="Lines that changed since the last sign-off"
            columns={[
              { label: "Line" },
              { label: "Signed", numeric: true },
              { label: "Now", numeric: true },
              { label: "Change", numeric: true },
            ]}
            rows={data.drift.lines.map((l) => {
              const v = (n: number) => (l.money ? money(n) : String(n));
              return {
                key: l.key,
                cells: [l.label, v(l.before), v(l.after), `${l.delta >= 0 ? "+" : ""}${v(l.delta)}`],
              };
            })}
          />
        </section>
      )}

      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat label="Sales" value={String(f.sales.count)} testId="night-sales-count" />
        <Stat
          label="Sales total"
          value={money(f.sales.total)}
          testId="night-sales-total"
          hint={`base ${money(f.sales.total_base)} · tax ${money(f.sales.total_tax)}`}
        />
        <Stat
          label="Top-ups"
          value={money(f.topups.amount)}
          testId="night-topups"
          hint={`${f.topups.count} records`}
        />
        <Stat
          label="Withdrawals"
          value={money(f.withdrawals.amount)}
          testId="night-withdrawals"
          hint={`${f.withdrawals.count} records`}
        />
        <Stat label="Bonuses" value={money(f.bonuses.amount)} hint={`${f.bonuses.count} records`} />
        <Stat label="Transfers" value={money(f.transfers.amount)} hint={`${f.transfers.count} records`} />
      </dl>

      <Panel title="Checksum against the upstream summary" id="checksum-title">
        <div className="flex flex-wrap items-center gap-4">
          <p data-testid="checksum">
            {!c?.upstream
              ? "Not checked yet"
              : c.matched
                ? "Matches upstream"
                : `Differs from upstream: ${c.difference!.sales_count >= 0 ? "+" : ""}${c.difference!.sales_count} sales, ${money(c.difference!.sales_total)} sales, ${money(c.difference!.topups_amount)} top-ups, ${money(c.difference!.withdrawals_amount)} withdrawals upstream`}
            {c?.checked_at && <span className="ml-2 text-sm text-slate-500">checked {at(c.checked_at)}</span>}
          </p>
          {canSign && (
            <button
              type="button"
              className={`${btn} no-print`}
              disabled={resync.isPending || !!c?.resync_pending_since}
              onClick={() => resync.mutate(day.id)}
            >
              {c?.resync_pending_since ? "Re-sync requested…" : "Re-sync this night"}
            </button>
          )}
        </div>
        {resync.isError && <LiveError error={resync.error} what="the re-sync" />}
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Sales by payment method" id="by-method-title">
          <DataTable
            caption="Sales by payment method"
            hiddenCaption
            columns={[
              { label: "Method" },
              { label: "Sales", numeric: true },
              { label: "Total", numeric: true },
            ]}
            rows={f.sales_by_payment_method.map((r) => ({
              key: r.payment_method,
              cells: [r.payment_method, r.count, money(r.total)],
            }))}
          />
        </Panel>
        <Panel title="Sales by terminal" id="by-terminal-title">
          <DataTable
            caption="Sales by terminal"
            hiddenCaption
            columns={[
              { label: "Terminal" },
              { label: "Sales", numeric: true },
              { label: "Total", numeric: true },
            ]}
            rows={f.sales_by_device.map((r) => ({
              key: r.device_id,
              cells: [r.device_id || "unknown", r.count, money(r.total)],
            }))}
          />
        </Panel>
        <Panel title="Sales by tax rate" id="by-tax-title">
          <DataTable
            caption="Sales by tax rate"
            hiddenCaption
            columns={[{ label: "Tax" }, { label: "Base", numeric: true }, { label: "Tax", numeric: true }]}
            rows={f.sales_by_tax.map((r) => ({
              key: `${r.tax_type}${r.rate}`,
              cells: [`${r.tax_type} ${r.rate}%`, money(r.base), money(r.tax)],
            }))}
          />
        </Panel>
        <Panel title="Top-ups and withdrawals by method" id="flows-title">
          <DataTable
            caption="Top-ups and withdrawals by payment method"
            hiddenCaption
            columns={[
              { label: "Method" },
              { label: "Top-ups", numeric: true },
              { label: "Withdrawals", numeric: true },
            ]}
            rows={[
              ...new Set(
                [...f.topups_by_payment_method, ...f.withdrawals_by_payment_method].map(
                  (r) => r.payment_method,
                ),
              ),
            ]
              .sort()
              .map((m) => ({
                key: m,
                cells: [
                  m,
                  money(f.topups_by_payment_method.find((r) => r.payment_method === m)?.amount ?? 0),
                  money(f.withdrawals_by_payment_method.find((r) => r.payment_method === m)?.amount ?? 0),
                ],
              }))}
          />
        </Panel>
      </div>

      <Panel title="Late arrivals (reached the server after the night ended)" id="late-title">
        {data.late && data.late.count > 0 ? (
          <>
            <p className="mb-2" data-testid="late-summary">
              {data.late.count} records, {money(data.late.amount)}
              {data.late.latest_created_at && `, latest ${at(data.late.latest_created_at)}`}
            </p>
            <DataTable
              caption="Late arrivals by terminal"
              hiddenCaption
              columns={[
                { label: "Terminal" },
                { label: "Records", numeric: true },
                { label: "Amount", numeric: true },
                { label: "Latest arrival" },
              ]}
              rows={data.late.by_device.map((d) => ({
                key: d.device_id,
                cells: [
                  d.device_id || "unknown",
                  d.count,
                  money(d.amount),
                  d.latest_created_at ? at(d.latest_created_at) : "—",
                ],
              }))}
            />
          </>
        ) : (
          <p data-testid="late-summary">No late arrivals.</p>
        )}
      </Panel>

      <SignoffPanel
        key={`${day.id}-${data.signoffs[0]?.id ?? "none"}`}
        data={data}
        canSign={canSign}
        onSigned={() => client.invalidateQueries({ queryKey: ["reconciliation"] })}
      />

      <Panel title="Sign-off history" id="history-title">
        {data.signoffs.length === 0 ? (
          <p>Not signed off yet.</p>
        ) : (
          <DataTable
            caption="Every sign-off of this night, newest first"
            hiddenCaption
            columns={[
              { label: "Signed" },
              { label: "By" },
              { label: "Sales", numeric: true },
              { label: "Sales total", numeric: true },
              { label: "Variance", numeric: true },
              { label: "Checksum" },
              { label: "Comment" },
            ]}
            rows={data.signoffs.map((s: Signoff) => ({
              key: s.id,
              cells: [
                at(s.signed_at),
                s.username,
                s.snapshot.figures.sales.count,
                money(s.snapshot.figures.sales.total),
                money(s.counted.reduce((n, l) => n + l.variance, 0)),
                s.snapshot.checksum.matched === null
                  ? "not checked"
                  : s.snapshot.checksum.matched
                    ? "matched"
                    : "differed",
                s.comment,
              ],
            }))}
          />
        )}
      </Panel>
    </div>
  );
}

function SignoffPanel({
  data,
  canSign,
  onSigned,
}: {
  data: NightReport;
  canSign: boolean;
  onSigned: () => void;
}) {
  const { money, currency } = eventFormat(data);
  const f = data.figures!;
  const digits = minorDigits(currency);
  const [counted, setCounted] = useState<Record<string, string>>({});
  const [comment, setComment] = useState("");
  const sign = useMutation({
    mutationFn: (body: SignoffRequest) =>
      fetchJson<Signoff>("/api/reconciliation/signoff", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    onSuccess: () => {
      setComment("");
      onSigned();
    },
  });
  const lines = f.expected.map((e) => {
    const key = `${e.device_id}|${e.payment_method}`;
    const text = counted[key] ?? "";
    const value = text === "" ? null : parseMajor(text, digits);
    return { e, key, text, value, invalid: text !== "" && value === null };
  });
  const invalid = lines.some((l) => l.invalid);
  return (
    <Panel title="Expected money per desk and sign-off" id="signoff-title">
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          if (invalid) return;
          sign.mutate({
            day_id: data.day!.id,
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
          caption="Expected = top-ups − withdrawals + sales, per desk and method"
          columns={[
            { label: "Desk" },
            { label: "Method" },
            { label: "Top-ups", numeric: true },
            { label: "Withdrawals", numeric: true },
            { label: "Sales", numeric: true },
            { label: "Expected", numeric: true },
            { label: "Counted", numeric: true },
            { label: "Variance", numeric: true },
          ]}
          rows={lines.map((l) => ({
            key: l.key,
            cells: [
              l.e.device_id || "unknown",
              l.e.payment_method,
              money(l.e.topups),
              money(l.e.withdrawals),
              money(l.e.sales),
              <span key="x" data-testid={`expected-${l.key}`}>
                {money(l.e.expected)}
              </span>,
              canSign ? (
                <input
                  key="c"
                  aria-label={`Counted ${l.e.payment_method} at ${l.e.device_id || "unknown"}`}
                  aria-invalid={l.invalid}
                  inputMode="decimal"
                  className="w-28 rounded border border-slate-300 px-2 py-0.5 text-right"
                  value={l.text}
                  placeholder="0.00"
                  onChange={(ev) => setCounted((c) => ({ ...c, [l.key]: ev.target.value }))}
                />
              ) : (
                "—"
              ),
              l.value === null ? "—" : money(l.value - l.e.expected),
            ],
          }))}
        />
        {canSign && (
          <div className="no-print mt-3 flex flex-wrap items-end gap-3">
            <label className="flex grow flex-col text-sm">
              <span className="font-medium">Comment</span>
              <textarea
                className="rounded border border-slate-300 px-2 py-1"
                rows={2}
                maxLength={2000}
                value={comment}
                onChange={(ev) => setComment(ev.target.value)}
              />
            </label>
            <button type="submit" className={btn} disabled={sign.isPending || invalid}>
              {data.signoffs.length ? "Sign off again" : "Sign off this night"}
            </button>
          </div>
        )}
        {invalid && (
          <p role="alert" className="text-sm text-red-800">
            A counted amount is not a number.
          </p>
        )}
        {sign.isError && <LiveError error={sign.error} what="the sign-off" />}
        {sign.isSuccess && (
          <p role="status" className="text-sm text-green-800">
            Signed off.
          </p>
        )}
      </form>
    </Panel>
  );
}
