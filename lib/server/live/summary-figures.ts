import "server-only";
import type { SalesSummary } from "@/lib/contract";
import type { Queryable } from "@/lib/db/db";
import type {
  FigureSource,
  FlowTotals,
  LiveContext,
  SalesDayReport,
  SalesTotals,
  TopupsDayReport,
} from "@/lib/shared/api/live";
import { daySummaries } from "../store/backfill";

/**
 * The figures of a day taken from the upstream's sales summary, for a day whose mirror is not
 * complete (or differs): the one rule of which applies is `figureSource` (sync/progress.ts), read
 * here from the context every live answer carries. A figure comes from one source, never both.
 */

export interface DayFigures {
  source: FigureSource;
  summary_at: string | null;
}

/** The day's source and, when it is the summary, the summary. */
export async function daySource(
  db: Queryable,
  ctx: Pick<LiveContext, "mirror">,
  dayId: string,
): Promise<{ figures: DayFigures; summary: SalesSummary | null }> {
  const day = ctx.mirror.days.find((d) => d.day_id === dayId);
  const fromMirror = { figures: { source: "mirror", summary_at: null }, summary: null } as const;
  if (day?.source !== "summary") return fromMirror;
  const summary = (await daySummaries(db)).get(dayId)?.summary;
  return summary ? { figures: { source: "summary", summary_at: summary.generated_at }, summary } : fromMirror;
}

/** Every day's summary, for the days whose figures come from it. */
export async function summariesBySource(
  db: Queryable,
  ctx: Pick<LiveContext, "mirror">,
): Promise<Map<string, SalesSummary>> {
  const fromSummary = ctx.mirror.days.filter((d) => d.source === "summary").map((d) => d.day_id);
  if (fromSummary.length === 0) return new Map();
  const kept = await daySummaries(db);
  const out = new Map<string, SalesSummary>();
  for (const dayId of fromSummary) {
    const s = kept.get(dayId);
    if (s) out.set(dayId, s.summary);
  }
  return out;
}

export const salesTotalsOf = (s: SalesSummary): SalesTotals => ({ ...s.sales });

export const flowTotalsOf = (s: SalesSummary): FlowTotals => ({
  topups: { count: s.topups.count, amount: s.topups.amount },
  withdrawals: { count: s.withdrawals.count, amount: s.withdrawals.amount },
  bonus: { count: s.bonuses.count, amount: s.bonuses.amount },
});

export function salesBreakdownsOf(
  s: SalesSummary,
): Pick<SalesDayReport, "by_product" | "by_payment_method" | "by_tax"> {
  return {
    by_product: [...s.by_product].sort(
      (a, b) => b.total - a.total || a.product_id.localeCompare(b.product_id),
    ),
    by_payment_method: [...s.by_payment_method].sort(
      (a, b) => b.total - a.total || a.payment_method.localeCompare(b.payment_method),
    ),
    by_tax: s.by_tax
      .map((t) => ({ tax_type: t.tax_type, rate: t.rate, base: t.base, tax: t.amount }))
      .sort((a, b) => a.tax_type.localeCompare(b.tax_type) || a.rate - b.rate),
  };
}

export function topupMethodsOf(s: SalesSummary): TopupsDayReport["by_payment_method"] {
  const rows = new Map<string, TopupsDayReport["by_payment_method"][number]>();
  const row = (payment_method: string) =>
    rows.get(payment_method) ?? { payment_method, topups: 0, withdrawals: 0, count: 0 };
  for (const [flow, side] of [
    [s.topups, "topups"],
    [s.withdrawals, "withdrawals"],
  ] as const)
    for (const m of flow.by_payment_method) {
      const r = row(m.payment_method);
      r[side] += m.amount;
      r.count += m.count;
      rows.set(m.payment_method, r);
    }
  return [...rows.values()].sort((a, b) => a.payment_method.localeCompare(b.payment_method));
}
