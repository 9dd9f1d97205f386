"use client";

import { useSyncExternalStore } from "react";

/** Below Tailwind's `sm` breakpoint (640 px): a phone held upright. */
export const PHONE_QUERY = "(max-width: 639.98px)";

/**
 * Whether the media query matches, kept up to date. The server (and hydration) renders as if it
 * did not, so the first paint is the desktop layout; components that only render after their
 * data loaded (tables) see the real answer at once.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
