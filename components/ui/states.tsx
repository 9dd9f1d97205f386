import type { ReactNode } from "react";
import { isConsoleError } from "@/lib/shared/api/errors";
import { joinClasses } from "./class-names";

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
  if (error == null) return null;
  const known = isConsoleError(error) ? error : null;
  const message = what
    ? `Could not load ${what}: ${known ? known.message : "the console cannot be reached."}`
    : (known?.message ?? "The console cannot be reached. Nothing was lost: try again.");
  return (
    <p
      role="alert"
      className={joinClasses("rounded border border-red-200 bg-red-50 p-3 text-red-800", className)}
    >
      {message}
      {known?.requestId && (
        <span className="ml-2 text-sm" data-testid="error-request-id">
          (request {known.requestId})
        </span>
      )}
    </p>
  );
}

/** "Loading the sales…", marked busy (the accessibility tests wait until nothing is). */
export function Loading({ what }: { what: string }) {
  return (
    <p aria-busy="true" className="rounded border border-slate-200 bg-white p-4 text-slate-600">
      Loading {what}…
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
