import type { ReactNode } from "react";
import { joinClasses } from "./class-names";

/** The id of a panel's heading when none is given: its title in kebab case. */
function headingIdOf(title: string): string {
  return `panel-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}

/**
 * A white box with a heading: a region named by its heading, so that screen readers list it and
 * tests find it by name. `id` is the heading's id (derived from the title when not given; give one
 * when two panels of a screen could have the same title).
 */
export function Panel({
  title,
  id,
  className = "",
  children,
}: {
  title: string;
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  const headingId = id ?? headingIdOf(title);
  return (
    <section
      aria-labelledby={headingId}
      className={joinClasses("rounded border border-slate-200 bg-white p-4", className)}
    >
      {/* A title may hold data (a code, a device id, what was typed): it wraps anywhere it must. */}
      <h2 id={headingId} className="mb-3 font-semibold [overflow-wrap:anywhere]">
        {title}
      </h2>
      {children}
    </section>
  );
}
