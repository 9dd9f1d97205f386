import "server-only";
import type { SalesSummary } from "@/lib/contract";
import type { Queryable } from "@/lib/db/db";
import {
  backfillRows,
  daySummaries,
  mirroredCountsPerDay,
  type StoredSummary,
} from "@/lib/server/store/backfill";
import { eventDays } from "@/lib/server/store/event-settings";
import type {
  DayFigures,
  DayMirror,
  FigureSource,
  LiveContext,
  MirrorProgress,
} from "@/lib/shared/api/sales";
import type { SyncDayCheck } from "@/lib/shared/api/sync";

/**
 * The one rule that says where a day's figures come from, and how far the mirror is (read side:
 * features use it, the worker writes what it reads).
 */

/** The worker's share of the read quota (it keeps 40 % in reserve) and the size of its pages. */
const WORKER_SHARE = 0.6;
const PAGE_SIZE = 200;

/**
 * Summary while the day's records are not all mirrored, or while its mirror differs from the
 * summary; the mirror otherwise (and whenever no summary was kept yet).
 */
export function figureSource(
  walked: boolean,
  check: Pick<SyncDayCheck, "matched"> | undefined,
  summary: StoredSummary | undefined,
): FigureSource {
  if (!summary) return "mirror";
  return !walked || (check !== undefined && !check.matched) ? "summary" : "mirror";
}

const expectedOf = (s: StoredSummary | undefined) =>
  s ? s.summary.sales.count + s.summary.topups.count + s.summary.withdrawals.count : null;

export async function mirrorProgress(
  db: Queryable,
  state: {
    checks: SyncDayCheck[];
    quotaLimit: number | null;
    pausedUntil: string | null;
    now: number;
  },
): Promise<MirrorProgress> {
  const [days, rows, summaries, counts] = await Promise.all([
    eventDays(db),
    backfillRows(db),
    daySummaries(db),
    mirroredCountsPerDay(db),
  ]);
  const mirrorDays = days.map((d): DayMirror => {
    const walked = rows.every((r) => r.dayId !== d.id || r.done);
    const summary = summaries.get(d.id);
    return {
      day_id: d.id,
      name: d.name,
      walked,
      source: figureSource(
        walked,
        state.checks.find((c) => c.dayId === d.id),
        summary,
      ),
      summary_at: summary?.summary.generated_at ?? null,
      records: counts.get(d.id) ?? 0,
      expected: expectedOf(summary),
    };
  });
  const pending = rows.find((r) => !r.done) ?? null;
  const resources = (["sales", "topups", "scans"] as const).map((resource) => {
    const own = rows.filter((r) => r.resource === resource);
    const next = own.find((r) => !r.done);
    return {
      resource,
      state: next ? (next === pending ? "backfilling" : "waiting") : ("following" as const),
      day_id: next?.dayId ?? null,
      days_walked: own.filter((r) => r.done).length,
      days: own.length,
      records: own.reduce((n, r) => n + r.records, 0),
      requests: own.reduce((n, r) => n + r.requests, 0),
    } as MirrorProgress["resources"][number];
  });
  const left = mirrorDays
    .filter((d) => !d.walked)
    .reduce((n, d) => n + Math.max(0, (d.expected ?? 0) - d.records), 0);
  const perSecond = ((state.quotaLimit ?? 120) * WORKER_SHARE) / 60;
  const paused = state.pausedUntil && Date.parse(state.pausedUntil) > state.now ? state.pausedUntil : null;
  return {
    state: summaries.size === 0 && days.length > 0 ? "starting" : pending ? "backfilling" : "following",
    walking: pending ? { resource: pending.resource, day_id: pending.dayId } : null,
    eta_seconds: pending ? Math.ceil(Math.ceil(left / PAGE_SIZE) / perSecond) : null,
    paused_until: paused,
    days: mirrorDays,
    resources,
  };
}

/** The day's source (from the context every live answer carries) and, when it is the summary, the summary. */
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

/** The summaries of the days whose figures come from them. */
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
