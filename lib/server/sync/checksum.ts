import "server-only";
import type { SalesSummary } from "@/lib/contract";
import { saveDaySummary } from "@/lib/server/store/backfill";
import { isMirroredDay, mirrorDayTotals } from "@/lib/server/store/mirror";
import { markResyncHandled, pendingResyncDays, saveDayCheck } from "@/lib/server/store/sync-state";
import type { DayTotals } from "@/lib/shared/api/sync";
import type { ResourceRun, SyncContext } from "./context";
import { rewalkDay } from "./rewalk";
import { syncTail } from "./tails";

/**
 * The per-day checksum against `GET /reports/sales-summary?day_id=`: a day whose mirror still differs
 * after a catch-up of the tails is re-walked by `day_id` (see rewalk.ts), which is what catches late
 * records whose id fell below a cursor. "Re-sync this night" requests re-walk a day on demand.
 */

export function summaryTotals(summary: SalesSummary): DayTotals {
  return {
    sales: {
      count: summary.sales.count,
      total: summary.sales.total,
      total_base: summary.sales.total_base,
      total_tax: summary.sales.total_tax,
    },
    topups: { count: summary.topups.count, amount: summary.topups.amount },
    withdrawals: { count: summary.withdrawals.count, amount: summary.withdrawals.amount },
  };
}

export const salesEqual = (a: DayTotals, b: DayTotals) =>
  a.sales.count === b.sales.count &&
  a.sales.total === b.sales.total &&
  a.sales.total_base === b.sales.total_base &&
  a.sales.total_tax === b.sales.total_tax;

export const flowsEqual = (a: DayTotals, b: DayTotals) =>
  a.topups.count === b.topups.count &&
  a.topups.amount === b.topups.amount &&
  a.withdrawals.count === b.withdrawals.count &&
  a.withdrawals.amount === b.withdrawals.amount;

/** Which of a day's totals equal its summary: sales, and top-ups with withdrawals ("flows"). */
interface Verdict {
  sales: boolean;
  flows: boolean;
  matched: boolean;
}

/** Days matched and days re-walked, in the order it happened (the cycle's report). */
export interface DayOutcomes {
  matchedDays: string[];
  rewalkedDays: string[];
}

/**
 * The days whose summary a cycle fetches, in walking `order` (the current day first). While a backfill
 * runs, the days other than the current one are fetched when none is `kept`, then once per
 * `refreshMs` once today is walked (their figures change little, and every request goes to the
 * backfill); afterwards every day, every cycle.
 */
export function summariesDue(plan: {
  order: string[];
  backfilling: boolean;
  walkingToday: boolean;
  kept: ReadonlySet<string>;
  fetchedAt: ReadonlyMap<string, number>;
  refreshMs: number;
  at: Date;
}): string[] {
  const { order, backfilling, walkingToday, kept, fetchedAt, refreshMs, at } = plan;
  return order.filter(
    (dayId, i) =>
      !backfilling ||
      i === 0 ||
      !kept.has(dayId) ||
      (!walkingToday && at.getTime() - (fetchedAt.get(dayId) ?? 0) >= refreshMs),
  );
}

/**
 * The summaries of `dayIds` (the current day first, see the worker's cycle), each kept in the store as
 * it arrives: the screens show a day's summary while its mirror is incomplete or differs.
 */
export async function fetchSummaries(
  ctx: SyncContext,
  run: ResourceRun,
  dayIds: string[],
): Promise<Map<string, SalesSummary>> {
  const summaries = new Map<string, SalesSummary>();
  for (const dayId of dayIds) summaries.set(dayId, await fetchSummary(ctx, run, dayId));
  return summaries;
}

async function fetchSummary(ctx: SyncContext, run: ResourceRun, dayId: string): Promise<SalesSummary> {
  const summary = await ctx.client.salesSummary({ day_id: dayId }, ctx.request(run));
  await saveDaySummary(ctx.db, summary, ctx.now());
  return summary;
}

/**
 * Compares a day's mirror with its summary: all its records, or those that had arrived when the
 * summary was generated (records keep arriving meanwhile).
 */
async function compareDay(ctx: SyncContext, dayId: string, summary: SalesSummary): Promise<Verdict> {
  const upstream = summaryTotals(summary);
  const all = await mirrorDayTotals(ctx.db, dayId);
  const upTo = await mirrorDayTotals(ctx.db, dayId, new Date(summary.generated_at));
  const sales = salesEqual(upstream, all) || salesEqual(upstream, upTo);
  const flows = flowsEqual(upstream, all) || flowsEqual(upstream, upTo);
  return { sales, flows, matched: sales && flows };
}

async function saveCheck(
  ctx: SyncContext,
  dayId: string,
  summary: SalesSummary,
  matched: boolean,
  rewalked: boolean,
): Promise<void> {
  await saveDayCheck(ctx.db, {
    dayId,
    at: ctx.now(),
    matched,
    upstream: { ...summaryTotals(summary), generated_at: summary.generated_at },
    mirror: await mirrorDayTotals(ctx.db, dayId),
    rewalked,
  });
}

/** Re-walks the day's sales and/or top-ups, then compares it with a fresh summary. */
async function rewalkAndCompare(
  ctx: SyncContext,
  run: ResourceRun,
  dayId: string,
  which: { sales: boolean; topups: boolean },
): Promise<{ summary: SalesSummary; verdict: Verdict }> {
  if (which.sales) await rewalkDay(ctx, "sales", dayId, run);
  if (which.topups) await rewalkDay(ctx, "topups", dayId, run);
  const summary = await fetchSummary(ctx, run, dayId);
  return { summary, verdict: await compareDay(ctx, dayId, summary) };
}

/** The checksum's memory across cycles: days a re-walk did not reconcile are held off a while. */
export class DayChecksum {
  /** Days a re-walk did not reconcile, and when that was. */
  private readonly unresolved = new Map<string, number>();

  /** @param rewalkBackoffMs a day still different right after a re-walk is not re-walked again before this */
  constructor(private readonly rewalkBackoffMs: number) {}

  /**
   * Compares each day with its summary. A day that differs gets one confirmation (catch up the
   * tails, fetch its summary again); if it still differs, its sales and/or top-ups are re-walked.
   */
  async reconcile(
    ctx: SyncContext,
    run: ResourceRun,
    summaries: Map<string, SalesSummary>,
    out: DayOutcomes,
    /** Whether a tail may be caught up (not while the first mirror has not started it). */
    tailReady: (resource: "sales" | "topups") => boolean = () => true,
  ): Promise<void> {
    const differing: string[] = [];
    for (const [dayId, summary] of summaries) {
      if ((await compareDay(ctx, dayId, summary)).matched) {
        await saveCheck(ctx, dayId, summary, true, false);
        out.matchedDays.push(dayId);
      } else differing.push(dayId);
    }
    if (differing.length === 0) return;
    for (const resource of ["sales", "topups"] as const)
      if (tailReady(resource)) await syncTail(ctx, resource, run);
    for (const dayId of differing) await this.confirmDay(ctx, run, dayId, out);
  }

  private async confirmDay(ctx: SyncContext, run: ResourceRun, dayId: string, out: DayOutcomes) {
    let summary = await fetchSummary(ctx, run, dayId);
    let verdict = await compareDay(ctx, dayId, summary);
    const rewalk = !verdict.matched && !this.holdingOff(ctx, dayId);
    if (rewalk) {
      ctx.log.info(
        `[sync] day ${dayId} differs from the sales summary (${verdict.sales ? "" : "sales "}${verdict.flows ? "" : "top-ups"}); re-walking`,
      );
      ({ summary, verdict } = await rewalkAndCompare(ctx, run, dayId, {
        sales: !verdict.sales,
        topups: !verdict.flows,
      }));
      out.rewalkedDays.push(dayId);
    }
    await saveCheck(ctx, dayId, summary, verdict.matched, rewalk);
    if (verdict.matched) {
      out.matchedDays.push(dayId);
      this.unresolved.delete(dayId);
    } else if (rewalk) {
      // Still different right after a full re-walk: the upstream's lists and summary disagree
      // (or records pour in). Re-walking every cycle would only burn quota: hold off a while.
      this.unresolved.set(dayId, ctx.now().getTime());
      ctx.log.warn(
        `[sync] day ${dayId} still differs after a re-walk; next re-walk in ${this.rewalkBackoffMs} ms`,
      );
    }
  }

  private holdingOff(ctx: SyncContext, dayId: string): boolean {
    const stuckSince = this.unresolved.get(dayId);
    return stuckSince !== undefined && ctx.now().getTime() - stuckSince < this.rewalkBackoffMs;
  }

  /**
   * "Re-sync this night" (migration 005's `sync_requests`): each requested day is re-walked (sales
   * and top-ups), checked against its summary again, and the request marked handled.
   */
  async handleResyncRequests(ctx: SyncContext, run: ResourceRun, out: DayOutcomes): Promise<void> {
    for (const dayId of await pendingResyncDays(ctx.db)) {
      if (await isMirroredDay(ctx.db, dayId)) {
        ctx.log.info(`[sync] day ${dayId}: re-sync requested; re-walking`);
        const { summary, verdict } = await rewalkAndCompare(ctx, run, dayId, { sales: true, topups: true });
        await saveCheck(ctx, dayId, summary, verdict.matched, true);
        if (!out.rewalkedDays.includes(dayId)) out.rewalkedDays.push(dayId);
        this.unresolved.delete(dayId);
      }
      await markResyncHandled(ctx.db, dayId, ctx.now());
    }
  }
}
