"use client";

import { type ReactNode, useId } from "react";
import { ScrollRegion } from "@/components/scroll-region";
import { BffError } from "@/lib/bff/fetch-json";
import type { LiveContext, LiveDay } from "@/lib/bff/live";
import { formatMoney } from "@/lib/live/money";
import { timeOfDay } from "@/lib/live/time";

/** Money and times of one event: its currency and its time zone (never the browser's). */
export function eventFormat(ctx: LiveContext) {
  const currency = ctx.event?.currency ?? "EUR";
  const timeZone = ctx.event?.time_zone ?? "UTC";
  return {
    currency,
    timeZone,
    money: (minor: number) => formatMoney(minor, currency),
    time: (at: string) => timeOfDay(at, timeZone),
  };
}

export function LiveError({ error, what }: { error: unknown; what: string }) {
  const e = error instanceof BffError ? error : null;
  return (
    <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-red-800">
      Could not load {what}: {e ? e.message : "the console cannot be reached."}
      {e?.requestId && (
        <span className="ml-2 text-sm" data-testid="error-request-id">
          (request {e.requestId})
        </span>
      )}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p aria-busy="true" className="rounded border border-slate-200 bg-white p-4 text-slate-600">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded border border-dashed border-slate-300 bg-white p-4 text-slate-600">{children}</p>
  );
}

/** "Data as of HH:MM:SS" (the sales sync's last success, in the event zone) and the sync's health. */
export function AsOf({ ctx, fetching }: { ctx: LiveContext; fetching?: boolean }) {
  const { time } = eventFormat(ctx);
  const problems = [
    ...(ctx.sync.worker_stale ? ["the sync worker is not running"] : []),
    ...(ctx.sync.failing.length ? [`sync failing: ${ctx.sync.failing.join(", ")}`] : []),
    ...(ctx.sync.pending.length ? [`not mirrored yet: ${ctx.sync.pending.join(", ")}`] : []),
  ];
  return (
    <div
      className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600"
      aria-live="polite"
    >
      <span data-testid="as-of">
        {ctx.as_of ? `Data as of ${time(ctx.as_of)}` : "Not synced yet"}
        {ctx.event && <span className="ml-1">({ctx.event.time_zone})</span>}
      </span>
      {fetching && <span className="text-slate-600">refreshing…</span>}
      {problems.length > 0 && (
        <span role="status" className="rounded bg-amber-100 px-2 py-0.5 text-amber-950">
          {problems.join("; ")}
          {ctx.sync.last_error?.request_id && ` (request ${ctx.sync.last_error.request_id})`}
        </span>
      )}
    </div>
  );
}

export function DayPicker({
  days,
  value,
  onChange,
}: {
  days: LiveDay[];
  value: string | null;
  onChange: (dayId: string) => void;
}) {
  // A label beside the select (not around it): its text is "Event day" alone, not the chosen day too.
  const id = useId();
  return (
    <div className="mb-4 flex items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium">
        Event day
      </label>
      <select
        id={id}
        className="rounded border border-slate-300 bg-white px-2 py-1"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value)}
      >
        {days.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name} ({d.date})
          </option>
        ))}
      </select>
    </div>
  );
}

export function Stat({
  label,
  value,
  testId,
  hint,
}: {
  label: string;
  value: string;
  testId?: string;
  hint?: string;
}) {
  return (
    <div className="rounded border border-slate-200 bg-white p-3">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
      {hint && <dd className="text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}

export function Panel({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="rounded border border-slate-200 bg-white p-4">
      <h2 id={id} className="mb-3 font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A plain table: every chart has one too, so its figures are readable by keyboard and screen reader. */
export function DataTable({
  caption,
  columns,
  rows,
  hiddenCaption,
  scrollClassName,
}: {
  caption: string;
  columns: { label: string; numeric?: boolean }[];
  rows: { key: string; cells: ReactNode[] }[];
  hiddenCaption?: boolean;
  /** The scroll box's classes (default: scrolls sideways when too wide). */
  scrollClassName?: string;
}) {
  return (
    <ScrollRegion label={caption} className={scrollClassName}>
      <table className="w-full text-left text-sm">
        <caption className={hiddenCaption ? "sr-only" : "mb-1 text-left text-xs text-slate-500"}>
          {caption}
        </caption>
        <thead>
          <tr className="border-b">
            {columns.map((c) => (
              <th key={c.label} scope="col" className={`py-1 pr-3 ${c.numeric ? "text-right" : ""}`}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-b border-slate-100">
              {r.cells.map((cell, i) => (
                <td
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                  key={i}
                  className={`py-1 pr-3 ${columns[i]?.numeric ? "text-right tabular-nums" : ""}`}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** A chart with its caption; the chart is focusable (recharts' keyboard layer) and its table follows. */
export function ChartFigure({
  label,
  children,
  height = 260,
}: {
  label: string;
  children: ReactNode;
  height?: number;
}) {
  return (
    <figure aria-label={label} className="w-full" style={{ height }}>
      {children}
    </figure>
  );
}

export function Pager({
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  label,
}: {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  label: string;
}) {
  const btn =
    "rounded border border-slate-300 px-3 py-1 text-sm enabled:hover:bg-slate-100 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-blue-700";
  return (
    <nav aria-label={label} className="mt-2 flex gap-2">
      <button type="button" className={btn} disabled={!hasPrevious} onClick={onPrevious}>
        Newer
      </button>
      <button type="button" className={btn} disabled={!hasNext} onClick={onNext}>
        Older
      </button>
    </nav>
  );
}

export const chartColors = {
  current: "#1d4ed8",
  previous: "#64748b",
  topups: "#15803d",
  withdrawals: "#b91c1c",
  allowed: "#15803d",
  denied: "#b91c1c",
  palette: ["#1d4ed8", "#15803d", "#b45309", "#7c3aed", "#0e7490", "#be123c", "#4d7c0f", "#334155"],
};
