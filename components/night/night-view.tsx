"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { CountAndTotalTable, FlowsTable, LateByTerminalTable } from "@/components/ui/breakdown-tables";
import { joinClasses, toolButtonClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { DayReportHeader } from "@/components/ui/day-report-header";
import { eventFormat } from "@/components/ui/event-format";
import { ReportNotLoaded, useLiveReport } from "@/components/ui/live-report";
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { RecordsNote } from "@/components/ui/mirror-status";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import { Empty, ErrorBox } from "@/components/ui/states";
import { keyOf, useWrite } from "@/components/ui/use-endpoint";
import { urlOf } from "@/lib/shared/api/call";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { Drift, NightChecksum, NightFigures, NightReport } from "@/lib/shared/api/night";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatCount } from "@/lib/shared/format/number";
import { timeOfDay } from "@/lib/shared/format/time";
import { AdjustmentsPanel, CompletenessPanel } from "./completeness-panel";
import { driftLabel } from "./drift-label";
import { FloatsPanel } from "./floats-panel";
import { NightStatusLine } from "./night-status";
import { SignoffHistory } from "./signoff-history";
import { SignoffPanel } from "./signoff-panel";
import { useNightCount } from "./use-night-count";

type Money = (minor: number) => string;

/**
 * Night reconciliation: the night's status at the top, then its count and sign-off (floats,
 * denominations, tolerance, approval), the sign-offs with their reports, and the figures below.
 */
export function NightView({
  canSign,
  canApprove,
  username,
}: {
  canSign: boolean;
  canApprove: boolean;
  username: string;
}) {
  const t = useTranslations("night");
  // A link may name the night (an alert's "see what explains it"): ?day_id=
  const [dayId, setDayId] = useState<string | null>(useSearchParams().get("day_id"));
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keyOf(endpoints.night.report) });
  const query = useLiveReport(endpoints.night.report, { day_id: dayId });
  if (!query.data) return <ReportNotLoaded query={query} what={t("loading")} />;
  const data = query.data;
  if (!data.day || !data.figures) return <Empty>{t("noNights")}</Empty>;
  return (
    <div className="space-y-6" data-testid="night">
      <DayReportHeader
        report={data}
        day={data.day}
        query={query}
        toolsClassName="no-print"
        figures={data.figures_source}
        onPick={setDayId}
        exportHref={urlOf(endpoints.night.export, { query: { day_id: data.day.id } })}
        exportLabel={t("export")}
      />
      <NightScreen
        key={data.day.id}
        report={data}
        canSign={canSign}
        canApprove={canApprove}
        username={username}
        onChanged={refresh}
      />
    </div>
  );
}

/** One night: its state keeps the count being typed while the report refreshes. */
function NightScreen({
  report: data,
  canSign,
  canApprove,
  username,
  onChanged,
}: {
  report: NightReport;
  canSign: boolean;
  canApprove: boolean;
  username: string;
  onChanged: () => void;
}) {
  const t = useTranslations("night");
  const value = useValueText();
  const locale = useIntlLocale();
  const count = useNightCount(data);
  const { money, timeZone, dateTime } = eventFormat(data, locale);
  const clock = (iso: string) => timeOfDay(iso, timeZone).slice(0, 5);
  // A device id is upstream text: its bidi controls shown, never obeyed (it ends up in sentences too).
  const desk = (id: string) => (id ? escapeBidi(id) : t("noTerminal"));
  const f = data.figures!;
  const day = data.day!;
  const mirroring = data.mirror.days.some((d) => d.day_id === day.id && !d.walked);
  const noTerminal =
    f.sales_by_device.some((r) => !r.device_id) || !!data.late?.by_device.some((r) => !r.device_id);
  return (
    <>
      <p className="text-sm text-slate-700" data-testid="night-window">
        {t("window", {
          name: day.name,
          start: dateTime(day.starts_at),
          end: dateTime(day.ends_at),
          timeZone,
        })}
        {data.ended ? "" : t("running")}
      </p>

      <NightStatusLine
        report={data}
        count={count}
        money={money}
        at={dateTime}
        clock={clock}
        mirroring={mirroring}
      />

      {data.drift && <DriftAlert drift={data.drift} money={money} />}

      <ChecksumPanel
        checksum={data.checksum}
        dayId={day.id}
        canResync={canSign}
        money={money}
        at={dateTime}
        onResynced={onChanged}
      />

      {data.completeness && (
        <CompletenessPanel
          dayId={day.id}
          completeness={data.completeness}
          mirroring={mirroring}
          canWaive={canSign && data.ended}
          at={dateTime}
          onWaived={onChanged}
        />
      )}

      <FloatsPanel report={data} canSet={canSign} money={money} at={dateTime} desk={desk} onSet={onChanged} />

      <SignoffPanel
        report={data}
        count={count}
        canSign={canSign}
        onChanged={onChanged}
        money={money}
        clock={clock}
        desk={desk}
        mirroring={mirroring}
      />

      <SignoffHistory
        signoffs={data.signoffs}
        money={money}
        at={dateTime}
        canApprove={canApprove}
        username={username}
        onChanged={onChanged}
      />

      {data.adjustments && <AdjustmentsPanel adjustments={data.adjustments} money={money} at={dateTime} />}

      <NightStats figures={f} money={money} />

      {noTerminal && (
        <p className="text-sm text-slate-700" data-testid="no-terminal-note">
          {t("noTerminalHint")}
        </p>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title={t("byMethod")} id="by-method-title">
          <CountAndTotalTable
            caption={t("byMethodCaption")}
            labels={[t("method"), t("sales"), t("total")]}
            rows={f.sales_by_payment_method.map((r) => ({
              key: r.payment_method,
              name: value(r.payment_method),
              ...r,
            }))}
            money={money}
          />
        </Panel>
        <Panel title={t("byTerminal")} id="by-terminal-title">
          <RecordsNote ctx={data} dayId={day.id} />
          <CountAndTotalTable
            caption={t("byTerminalCaption")}
            labels={[t("terminal"), t("sales"), t("total")]}
            rows={f.sales_by_device.map((r) => ({ key: r.device_id, name: desk(r.device_id), ...r }))}
            money={money}
          />
        </Panel>
        <Panel title={t("byTax")} id="by-tax-title">
          <DataTable
            caption={t("byTaxCaption")}
            hiddenCaption
            columns={[t("tax"), numeric(t("base")), numeric(t("tax"))]}
            rows={f.sales_by_tax.map((r) => ({
              key: `${r.tax_type}${r.rate}`,
              cells: [`${r.tax_type} ${r.rate}%`, money(r.base), money(r.tax)],
            }))}
          />
        </Panel>
        <Panel title={t("flowsTitle")} id="flows-title">
          <FlowsTable
            caption={t("flowsCaption")}
            nameLabel={t("method")}
            rows={flowsByMethod(f).map((r) => ({ ...r, name: value(r.name) }))}
            money={money}
          />
        </Panel>
      </div>

      <Panel title={t("lateTitle")} id="late-title">
        <RecordsNote ctx={data} dayId={day.id} />
        {data.late && data.late.count > 0 ? (
          <>
            <p className="mb-2" data-testid="late-summary">
              {t("lateSummary", {
                count: formatCount(data.late.count, locale),
                amount: money(data.late.amount),
              })}
              {data.late.latest_created_at &&
                t("lateLatest", { time: dateTime(data.late.latest_created_at) })}
            </p>
            <LateByTerminalTable
              caption={t("lateCaption")}
              countLabel={t("records")}
              rows={data.late.by_device}
              money={money}
              at={dateTime}
            />
          </>
        ) : (
          <p data-testid="late-summary">{t("noLate")}</p>
        )}
      </Panel>
    </>
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
  const t = useTranslations("night");
  const locale = useIntlLocale();
  const label = useDriftLabel();
  return (
    <section
      role="alert"
      aria-labelledby="drift-title"
      className="rounded border border-amber-300 bg-amber-50 p-4"
      data-testid="drift"
    >
      <h2 id="drift-title" className="font-semibold text-amber-950">
        {t("drift", {
          count: `${signed(drift.sales_count)}${formatCount(drift.sales_count, locale)}`,
          total: `${signed(drift.sales_total)}${money(drift.sales_total)}`,
        })}
      </h2>
      <DataTable
        caption={t("driftCaption")}
        columns={[t("line"), numeric(t("signed")), numeric(t("now")), numeric(t("change"))]}
        rows={drift.lines.map((l) => {
          const value = (n: number) => (l.money ? money(n) : formatCount(n, locale));
          return {
            key: l.key,
            cells: [label(l), value(l.before), value(l.after), `${signed(l.delta)}${value(l.delta)}`],
          };
        })}
      />
    </section>
  );
}

/** A drift line's words in the user's language. */
function useDriftLabel(): (line: { key: string; label: string }) => string {
  const t = useTranslations();
  const value = useValueText();
  return (line) => driftLabel(t, value, line);
}

function NightStats({ figures: f, money }: { figures: NightFigures; money: Money }) {
  const t = useTranslations("night");
  const locale = useIntlLocale();
  const count = (n: number) => formatCount(n, locale);
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
      <Stat label={t("sales")} value={count(f.sales.count)} testId="night-sales-count" />
      <Stat
        label={t("salesTotal")}
        value={money(f.sales.total)}
        testId="night-sales-total"
        hint={t("baseTax", { base: money(f.sales.total_base), tax: money(f.sales.total_tax) })}
      />
      <Stat
        label={t("topups")}
        value={money(f.topups.amount)}
        testId="night-topups"
        hint={t("recordsHint", { count: count(f.topups.count) })}
      />
      <Stat
        label={t("withdrawals")}
        value={money(f.withdrawals.amount)}
        testId="night-withdrawals"
        hint={t("recordsHint", { count: count(f.withdrawals.count) })}
      />
      <Stat
        label={t("bonuses")}
        value={money(f.bonuses.amount)}
        hint={t("recordsHint", { count: count(f.bonuses.count) })}
      />
      <Stat
        label={t("transfers")}
        value={money(f.transfers.amount)}
        hint={t("recordsHint", { count: count(f.transfers.count) })}
      />
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
  const resync = useWrite(endpoints.night.resync, { onSuccess: onResynced });
  const t = useTranslations("night");
  const d = c?.difference;
  return (
    <Panel title={t("checksumTitle")} id="checksum-title">
      <div className="flex flex-wrap items-center gap-4">
        <p data-testid="checksum">
          {!c?.upstream
            ? t("notChecked")
            : c.matched
              ? t("matches")
              : d
                ? t("differsBy", {
                    count: `${signed(d.sales_count)}${d.sales_count}`,
                    sales: money(d.sales_total),
                    topups: money(d.topups_amount),
                    withdrawals: money(d.withdrawals_amount),
                  })
                : t("differs")}
          {c?.checked_at && (
            <span className="ml-2 text-sm text-slate-500">{t("checked", { time: at(c.checked_at) })}</span>
          )}
        </p>
        {canResync && (
          <button
            type="button"
            className={joinClasses(toolButtonClass, "no-print")}
            disabled={resync.isPending || !!c?.resync_pending_since}
            onClick={() => resync.mutate({ body: { day_id: dayId } })}
          >
            {c?.resync_pending_since ? t("resyncRequested") : t("resync")}
          </button>
        )}
      </div>
      {resync.isError && <ErrorBox error={resync.error} what={t("theResync")} />}
    </Panel>
  );
}
