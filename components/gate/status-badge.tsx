"use client";

import { useTranslations } from "next-intl";

const statusStyle: Record<string, string> = {
  active: "bg-green-100 text-green-900",
  used: "bg-blue-100 text-blue-900",
  inactive: "bg-slate-200 text-slate-800",
};

/** A ticket's or a wristband's status as a coloured badge ("pending review" in amber). */
export function StatusBadge({ status }: { status: string }) {
  const t = useTranslations("status");
  return (
    <span
      data-testid="status"
      className={`rounded px-2 py-0.5 text-xs font-semibold ${statusStyle[status] ?? "bg-amber-100 text-amber-900"}`}
    >
      {t.has(status) ? t(status) : status.replace("_", " ")}
    </span>
  );
}
