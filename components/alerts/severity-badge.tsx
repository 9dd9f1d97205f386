"use client";

import { useTranslations } from "next-intl";
import type { AlertSeverity } from "@/lib/shared/api/attention";

/** An alert's severity in words and colour. */
const severityLook: Record<AlertSeverity, string> = {
  info: "bg-slate-100 text-slate-800",
  warning: "bg-amber-100 text-amber-900",
  critical: "bg-red-100 text-red-900",
};

export function SeverityBadge({ severity }: { severity: AlertSeverity }) {
  const t = useTranslations("alerts.severity");
  return (
    <span className={`inline-block rounded px-2 py-0.5 text-xs font-medium ${severityLook[severity]}`}>
      {t(severity)}
    </span>
  );
}
