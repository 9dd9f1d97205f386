"use client";

import { useTranslations } from "next-intl";
import { joinClasses } from "@/components/ui/class-names";
import type { NightReport } from "@/lib/shared/api/night";
import { beyondNight } from "@/lib/shared/night-close";
import type { NightCount } from "./use-night-count";

type Tone = "ok" | "warn" | "neutral";

const TONES: Record<Tone, string> = {
  ok: "border-green-300 bg-green-50 text-green-900",
  warn: "border-amber-300 bg-amber-50 text-amber-950",
  neutral: "border-slate-200 bg-white text-slate-800",
};

function Item({ label, value, tone, testId }: { label: string; value: string; tone: Tone; testId?: string }) {
  return (
    <div className={joinClasses("rounded border px-3 py-2", TONES[tone])} data-testid={testId}>
      <dt className="text-xs font-medium uppercase tracking-wide opacity-80">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * The night at a glance, at the top: running or ended, provisional or complete, the checksum, the
 * sign-off, how many lines are counted and the expected, counted and variance totals.
 */
export function NightStatusLine({
  report,
  count,
  money,
  at,
  clock,
  mirroring,
}: {
  report: NightReport;
  count: NightCount;
  money: (minor: number) => string;
  at: (iso: string) => string;
  clock: (iso: string) => string;
  mirroring: boolean;
}) {
  const t = useTranslations("nightStatus");
  const day = report.day!;
  const c = report.checksum;
  const last = report.signoffs[0];
  const totals = count.totals;
  const hideExpected = count.blind && totals.counted_lines < totals.lines;
  return (
    <section aria-label={t("label")} data-testid="night-status">
      <dl className="grid grid-cols-2 gap-2 text-sm md:grid-cols-4 xl:grid-cols-8">
        <Item
          label={t("night")}
          value={
            report.ended ? t("ended", { time: at(day.ends_at) }) : t("running", { time: clock(day.ends_at) })
          }
          tone={report.ended ? "neutral" : "warn"}
          testId="status-running"
        />
        <Item
          label={t("completeness")}
          value={
            mirroring ? t("mirroring") : report.completeness?.provisional ? t("provisional") : t("complete")
          }
          tone={mirroring || report.completeness?.provisional ? "warn" : "ok"}
        />
        <Item
          label={t("checksum")}
          value={!c?.upstream ? t("notChecked") : c.matched ? t("matches") : t("differs")}
          tone={c?.matched ? "ok" : "warn"}
          testId="status-checksum"
        />
        <Item
          label={t("signoff")}
          value={
            !last
              ? t("notSigned")
              : last.status === "awaiting_approval"
                ? t("awaiting", { who: last.username })
                : t("signed", { who: last.username, time: at(last.signed_at) })
          }
          tone={!last || last.status === "awaiting_approval" || report.drift ? "warn" : "ok"}
          testId="status-signoff"
        />
        <Item
          label={t("counted")}
          value={t("countedOf", { counted: totals.counted_lines, lines: totals.lines })}
          tone={totals.counted_lines === totals.lines ? "ok" : "warn"}
          testId="status-counted"
        />
        <Item
          label={t("expected")}
          value={hideExpected ? t("hidden") : money(totals.expected)}
          tone="neutral"
          testId="status-expected"
        />
        <Item
          label={t("countedTotal")}
          value={money(totals.counted)}
          tone="neutral"
          testId="status-counted-total"
        />
        <Item
          label={t("variance")}
          value={totals.counted_lines === 0 || hideExpected ? "—" : money(totals.variance)}
          tone={count.needsApproval || beyondNight(totals.variance, report.tolerance) ? "warn" : "neutral"}
          testId="status-variance"
        />
      </dl>
    </section>
  );
}
