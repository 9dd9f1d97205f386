"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { isConsoleError } from "@/lib/shared/api/errors";
import { joinClasses } from "./class-names";
import { useErrorText } from "./error-text";

/**
 * An error in plain words, with the request id to quote to support (`data-testid="error-request-id"`).
 * With `what`, it says what could not be loaded ("Could not load the sales: …"). Nothing when there
 * is no error, so a form can always place it.
 */
export function ErrorBox({
  error,
  what,
  className = "",
}: {
  error: unknown;
  what?: string;
  className?: string;
}) {
  const t = useTranslations("states");
  const errorText = useErrorText();
  if (error == null) return null;
  const known = isConsoleError(error) ? error : null;
  const message = what
    ? t("couldNotLoad", { what, reason: known ? errorText(known) : t("unreachable") })
    : known
      ? errorText(known)
      : t("unreachableRetry");
  return (
    <p
      role="alert"
      className={joinClasses("rounded border border-red-200 bg-red-50 p-3 text-red-800", className)}
    >
      {message}
      {known?.requestId && (
        <span className="ml-2 text-sm" data-testid="error-request-id">
          {t("request", { id: known.requestId })}
        </span>
      )}
    </p>
  );
}

/** "Loading the sales…", marked busy (the accessibility tests wait until nothing is). */
export function Loading({ what }: { what: string }) {
  const t = useTranslations("states");
  return (
    <p aria-busy="true" className="rounded border border-slate-200 bg-white p-4 text-slate-600">
      {t("loading", { what })}
    </p>
  );
}

/**
 * Nothing to show. A dashed box on a report; `plain`, a line of quiet text (inside a card, under a
 * list that stays visible).
 */
export function Empty({
  children,
  plain = false,
  className = "",
}: {
  children: ReactNode;
  plain?: boolean;
  className?: string;
}) {
  const look = plain
    ? "text-sm text-slate-600"
    : "rounded border border-dashed border-slate-300 bg-white p-4 text-slate-600";
  return <p className={joinClasses(look, className)}>{children}</p>;
}
