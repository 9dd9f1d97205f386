"use client";

import { useTranslations } from "next-intl";
import type { LiveContext, MirrorFreshness } from "@/lib/shared/api/sales";
import { timeOfDay } from "@/lib/shared/format/time";
import { type Freshness, freshness, type SyncHealth } from "@/lib/shared/freshness";
import { useNow } from "./console-clock";
import { useStreamStatus } from "./stream-status";

/**
 * How old a panel's figures are, ticking every second ("· 2 s ago"), and when they are older than
 * 90 s a stale mark that says why (lib/shared/freshness.ts decides; the stream state is the push
 * stream's). Colour and words: the mark reads "Stale" whatever the colours.
 */

/** The sync's health as a live answer carries it. */
export const syncHealthOf = (ctx: Pick<LiveContext, "sync" | "mirror">): SyncHealth => ({
  worker_stale: ctx.sync.worker_stale,
  failing: ctx.sync.failing,
  paused_until: ctx.mirror.paused_until,
});

/** The figures' freshness now, re-decided every second. */
export function useFreshness(
  asOf: string | null,
  sync: SyncHealth | null,
  refreshFailing = false,
): Freshness {
  const now = useNow();
  const stream = useStreamStatus();
  return freshness({ asOf, now, sync, stream: stream.state, refreshFailing });
}

/** "2 s ago", "3 min ago", "1 h 5 min ago". */
export function useAgeText() {
  const t = useTranslations("freshness");
  return (seconds: number) => {
    if (seconds < 120) return t("secondsAgo", { seconds });
    if (seconds < 3600) return t("minutesAgo", { minutes: Math.floor(seconds / 60) });
    return t("hoursAgo", { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) });
  };
}

/** "· 2 s ago" (nothing without an as-of). */
export function AgeText({ state }: { state: Freshness }) {
  const ago = useAgeText();
  if (state.age === null) return null;
  return <span data-testid="data-age">· {ago(state.age)}</span>;
}

/** "Stale: sync failing; live updates disconnected", in red with a border (not by colour alone). */
export function StaleMark({ state }: { state: Freshness }) {
  const t = useTranslations("freshness");
  if (!state.stale) return null;
  return (
    <span
      role="status"
      data-testid="stale"
      data-reasons={state.reasons.join(" ")}
      className="rounded border border-red-700 bg-red-50 px-2 py-0.5 font-medium text-red-900"
    >
      {t("stale", { reasons: state.reasons.map((r) => t(`reason.${r}`)).join("; ") })}
    </span>
  );
}

/**
 * "Data as of 18:42:07 · 2 s ago" and the stale mark, for an answer that carries MirrorFreshness
 * (terminals, alerts) rather than the whole live context.
 */
export function FreshnessLine({
  freshness: f,
  timeZone,
  refreshFailing = false,
}: {
  freshness: MirrorFreshness;
  timeZone: string;
  refreshFailing?: boolean;
}) {
  const t = useTranslations("report");
  const state = useFreshness(f.as_of, f.sync, refreshFailing);
  return (
    <p
      className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600"
      data-stale={state.stale}
    >
      <span className="inline-flex flex-wrap gap-x-1.5">
        <span data-testid="as-of">
          {f.as_of ? t("dataAsOf", { time: timeOfDay(f.as_of, timeZone) }) : t("notSynced")}
        </span>
        <AgeText state={state} />
      </span>
      <StaleMark state={state} />
    </p>
  );
}
