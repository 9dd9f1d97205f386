"use client";

import { useTranslations } from "next-intl";
import type { TerminalState } from "@/lib/shared/api/attention";

const stateLook: Record<TerminalState, string> = {
  live: "bg-green-100 text-green-900",
  quiet: "bg-amber-100 text-amber-900",
  late: "bg-red-100 text-red-900",
  back: "bg-blue-100 text-blue-900",
  idle: "bg-slate-100 text-slate-700",
};

/** A terminal's state in words and colour (`data-state` for tests). */
export function StateBadge({ state }: { state: TerminalState }) {
  const t = useTranslations("terminals.state");
  return (
    <span
      data-state={state}
      className={`inline-block rounded px-2 py-0.5 text-xs font-medium ${stateLook[state]}`}
    >
      {t(state)}
    </span>
  );
}
