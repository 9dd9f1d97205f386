"use client";

import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";

/**
 * A box that scrolls its content (a wide or a long table). When the content does overflow, the box
 * becomes a named, focusable region, so that keyboard users can scroll it with the arrow keys and
 * screen readers announce what it holds (WCAG 2.1.1; axe `scrollable-region-focusable`). When
 * everything fits, it is a plain box and adds no stop to the tab order.
 */
export function ScrollRegion({
  label,
  className = "overflow-x-auto",
  children,
}: {
  /** What the box holds, e.g. the table's caption. */
  label: string;
  /** Tailwind classes of the box: `overflow-x-auto` (wide content), `max-h-80 overflow-y-auto`… */
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const overflows = useOverflow(ref);
  return (
    <div
      ref={ref}
      className={`${className} focus-visible:outline-2 focus-visible:outline-blue-700`}
      {...(overflows ? { role: "region", "aria-label": label, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}

/** True while the element's content is larger than its box (it scrolls), kept up to date on resize. */
function useOverflow(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () =>
      setOverflows(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}
