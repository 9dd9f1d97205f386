"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";

/**
 * The header's bell: how many alerts of the kinds this role sees are open (the number counts the
 * unacknowledged ones), a link to the alerts screen. Quiet (no number) when nothing is open.
 */
export function AlertBell() {
  const t = useTranslations("alerts");
  const query = useEndpoint(endpoints.alerts.count, {});
  const count = query.data?.unacknowledged ?? 0;
  const open = query.data?.open ?? 0;
  return (
    <Link
      href="/alerts"
      data-testid="alert-bell"
      data-count={count}
      aria-label={t("bell", { count, open })}
      className="relative inline-flex min-h-11 min-w-11 items-center justify-center rounded text-slate-800 hover:bg-slate-100 md:min-h-8 md:min-w-8"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="size-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
      >
        <path d="M10 3a4.5 4.5 0 0 0-4.5 4.5v3L4 13h12l-1.5-2.5v-3A4.5 4.5 0 0 0 10 3Z" />
        <path d="M8.2 15.5a1.9 1.9 0 0 0 3.6 0" />
      </svg>
      {count > 0 && (
        <span className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-semibold text-white">
          {count}
        </span>
      )}
    </Link>
  );
}
