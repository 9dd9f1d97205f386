"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CountAndTotalTable, FlowsTable, LateByTerminalTable } from "@/components/ui/breakdown-tables";
import { joinClasses, toolButtonClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { DayReportHeader } from "@/components/ui/day-report-header";
import { eventFormat } from "@/components/ui/event-format";
import { ReportNotLoaded, useLiveReport } from "@/components/ui/live-report";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty, ErrorBox } from "@/components/ui/states";
import { postJson } from "@/lib/shared/api/client";
import {
  type Drift,
  type NightChecksum,
  type NightFigures,
  NightReport,
  ResyncAnswer,
} from "@/lib/shared/api/reconciliation";
import { SignoffHistory, SignoffPanel } from "./signoff-panel";

const REPORT_PATH = "/api/reconciliation";
const PRINT_STYLE = `@media print { nav, header, search, [role=search], .no-print { display: none !important; } body { background: white; } section { break-inside: avoid; } }`;

type Money = (minor: number) => string;

/** Night reconciliation (issue #7): a night's figures, checksum, late arrivals, sign-off and drift. */
export function NightView({ canSign }: { canSign: boolean }) {
  const [dayId, setDayId] = useState<string | null>(null);
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: [REPORT_PATH] });
  const query = useLiveReport(REPORT_PATH, NightReport, { day_id: dayId });
  if (!query.data) return <ReportNotLoaded query={query} what="the night" />;
  const data = query.data;
  if (!data.day || !data.figures) return <Empty>The event has no nights yet.</Empty>;
  const { money, timeZone, dateTime } = eventFormat(data);
  const f = data.figures;
  const day = data.day;

  return (
    <div className="space-y-6" data-testid="night">
      <style>{PRINT_STYLE}</style>
      <DayReportHeader
        report={data}
        day={data.day}
        query={query}
        toolsClassName="no-print"
        onPick={setDayId}
        exportHref={`/api/reconciliation/export?day_id=${encodeURIComponent(day.id)}`}
        exportLabel="Export the night as CSV"
      >
        <button type="button" className={joinClasses(toolButtonClass, "mb-4")} onClick={() => window.print()}>
          Print report
        </button>
      </DayReportHeader>
      <p className="text-sm text-slate-700" data-testid="night-window">
        {day.name}: {dateTime(day.starts_at)} – {dateTime(day.ends_at)} ({timeZone})
        {data.ended ? "" : " — still running"}
      </p>

      {data.drift && <DriftAlert drift={data.drift} money={money} />}

      <NightStats figures={f} money={money} />

      <ChecksumPanel
        checksum={data.checksum}
        dayId={day.id}
        canResync={canSign}
        money={money}
        at={dateTime}
        onResynced={refresh}
      />

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Sales by payment method" id="by-method-title">
          <CountAndTotalTable
            caption="Sales by payment method"
            labels={["Method", "Sales", "Total"]}
            rows={f.sales_by_payment_method.map((r) => ({
              key: r.payment_method,
              name: r.payment_method,
              ...r,
            }))}
            money={money}
          />
        </Panel>
        <Panel title="Sales by terminal" id="by-terminal-title">
          <CountAndTotalTable
            caption="Sales by terminal"
            labels={["Terminal", "Sales", "Total"]}
            rows={f.sales_by_device.map((r) => ({ key: r.device_id, name: r.device_id || "unknown", ...r }))}
            money={money}
          />
        </Panel>
        <Panel title="Sales by tax rate" id="by-tax-title">
          <DataTable
            caption="Sales by tax rate"
            hiddenCaption
            columns={["Tax", numeric("Base"), numeric("Tax")]}
            rows={f.sales_by_tax.map((r) => ({
              key: `${r.tax_type}${r.rate}`,
              cells: [`${r.tax_type} ${r.rate}%`, money(r.base), money(r.tax)],
            }))}
          />
        </Panel>
        <Panel title="Top-ups and withdrawals by method" id="flows-title">
          <FlowsTable
            caption="Top-ups and withdrawals by payment method"
            nameLabel="Method"
            rows={flowsByMethod(f)}
            money={money}
          />
        </Panel>
      </div>

      <Panel title="Late arrivals (reached the server after the night ended)" id="late-title">
        {data.late && data.late.count > 0 ? (
          <>
            <p className="mb-2" data-testid="late-summary">
              {data.late.count} records, {money(data.late.amount)}
              {data.late.latest_created_at && `, latest ${dateTime(data.late.latest_created_at)}`}
            </p>
            <LateByTerminalTable
              caption="Late arrivals by terminal"
              countLabel="Records"
              rows={data.late.by_device}
              money={money}
              at={dateTime}
            />
          </>
        ) : (
          <p data-testid="late-summary">No late arrivals.</p>
        )}
      </Panel>

      <SignoffPanel
        key={`${day.id}-${data.signoffs[0]?.id ?? "none"}`}
        report={data}
        canSign={canSign}
        onSigned={refresh}
      />

      <SignoffHistory signoffs={data.signoffs} money={money} at={dateTime} />
    </div>
  );
}

/** Top-ups and withdrawals of each payment method side by side (a method may have only one). */
function flowsByMethod(f: NightFigures) {
  const amountOf = (rows: { payment_method: string; amount: number }[], method: string) =>
    rows.find((r) => r.payment_method === method)?.amount ?? 0;
  const methods = new Set(
    [...f.topups_by_payment_method, ...f.withdrawals_by_payment_method].map((r) => r.payment_method),
  );
  return [...methods].sort().map((m) => ({
    key: m,
    name: m,
    topups: amountOf(f.topups_by_payment_method, m),
    withdrawals: amountOf(f.withdrawals_by_payment_method, m),
  }));
}

const signed = (n: number) => (n >= 0 ? "+" : "");

/** The night changed since it was signed off: by how much, and which lines. */
function DriftAlert({ drift, money }: { drift: Drift; money: Money }) {
  return (
    <section
      role="alert"
      aria-labelledby="drift-title"
      className="rounded border border-amber-300 bg-amber-50 p-4"
      data-testid="drift"
    >
      <h2 id="drift-title" className="font-semibold text-amber-950">
        Changed since sign-off: {signed(drift.sales_count)}
        {drift.sales_count} sales, {signed(drift.sales_total)}
        {money(drift.sales_total)}
      </h2>
      <DataTable
        caption="Lines that changed since the last sign-off"
        columns={["Line", numeric("Signed"), numeric("Now"), numeric("Change")]}
        rows={drift.lines.map((l) => {
          const value = (n: number) => (l.money ? money(n) : String(n));
          return {
            key: l.key,
            cells: [l.label, value(l.before), value(l.after), `${signed(l.delta)}${value(l.delta)}`],
          };
        })}
      />
    </section>
  );
}

function NightStats({ figures: f, money }: { figures: NightFigures; money: Money }) {
  return (
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
  );
}

/** The night against the upstream's summary, and (for who may sign) a re-walk of the night. */
function ChecksumPanel({
  checksum: c,
  dayId,
  canResync,
  money,
  at,
  onResynced,
}: {
  checksum: NightChecksum | null;
  dayId: string;
  canResync: boolean;
  money: Money;
  at: (iso: string) => string;
  onResynced: () => void;
}) {
  const resync = useMutation({
    mutationFn: (day: string) => postJson("/api/reconciliation/resync", { day_id: day }, ResyncAnswer),
    onSuccess: onResynced,
  });
  const d = c?.difference;
  return (
    <Panel title="Checksum against the upstream summary" id="checksum-title">
      <div className="flex flex-wrap items-center gap-4">
        <p data-testid="checksum">
          {!c?.upstream
            ? "Not checked yet"
            : c.matched
              ? "Matches upstream"
              : `Differs from upstream${d ? `: ${signed(d.sales_count)}${d.sales_count} sales, ${money(d.sales_total)} sales, ${money(d.topups_amount)} top-ups, ${money(d.withdrawals_amount)} withdrawals upstream` : ""}`}
          {c?.checked_at && <span className="ml-2 text-sm text-slate-500">checked {at(c.checked_at)}</span>}
        </p>
        {canResync && (
          <button
            type="button"
            className={joinClasses(toolButtonClass, "no-print")}
            disabled={resync.isPending || !!c?.resync_pending_since}
            onClick={() => resync.mutate(dayId)}
          >
            {c?.resync_pending_since ? "Re-sync requested…" : "Re-sync this night"}
          </button>
        )}
      </div>
      {resync.isError && <ErrorBox error={resync.error} what="the re-sync" />}
    </Panel>
  );
}
