import type { ReactNode } from "react";
import { joinClasses } from "./class-names";

/** A list of labelled values in two columns (label, value): a ticket's, a wristband's, a receipt's. */
export function Fields({
  children,
  testId,
  className = "",
}: {
  children: ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <dl
      data-testid={testId}
      className={joinClasses("grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm", className)}
    >
      {children}
    </dl>
  );
}

/** One labelled value of `Fields`. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd className="min-w-0 [overflow-wrap:anywhere]">{children}</dd>
    </>
  );
}
