"use client";

import { useTranslations } from "next-intl";
import { useCallback, useMemo, useState } from "react";
import { toolButtonClass } from "./class-names";

/**
 * The pages of a list read by cursor, newest first: the cursors of the pages opened so far, so
 * that "back" returns to the page before (a cursor API only knows the way forward).
 */
export interface CursorPager {
  /** The cursor of the page shown; null on the first page. */
  cursor: string | null;
  /** True once a page after the first is shown. */
  canGoBack: boolean;
  /** To the page shown before this one. */
  back: () => void;
  /** To the page that starts at `nextCursor` (the answer's next cursor). */
  forward: (nextCursor: string) => void;
  /** To the first page again (the filter or the day changed). */
  reset: () => void;
}

export function useCursorPager(): CursorPager {
  const [stack, setStack] = useState<string[]>([]);
  const back = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const forward = useCallback((next: string) => setStack((s) => [...s, next]), []);
  const reset = useCallback(() => setStack([]), []);
  return useMemo(
    () => ({ cursor: stack[stack.length - 1] ?? null, canGoBack: stack.length > 0, back, forward, reset }),
    [stack, back, forward, reset],
  );
}

/** What the pager's buttons need: the pager, the cursor of the next page (null: this is the last) and words. */
export interface CursorPagerNavProps {
  pager: CursorPager;
  next: string | null;
  /** The navigation's name, e.g. "Latest sales pages". */
  label: string;
  backLabel?: string;
  forwardLabel?: string;
}

/** The two buttons of a cursor-paged list: back (Newer) and forward (Older). */
export function CursorPagerNav({ pager, next, label, backLabel, forwardLabel }: CursorPagerNavProps) {
  const t = useTranslations("pager");
  return (
    <nav aria-label={label} className="mt-2 flex gap-2">
      <button type="button" className={toolButtonClass} disabled={!pager.canGoBack} onClick={pager.back}>
        {backLabel ?? t("newer")}
      </button>
      <button
        type="button"
        className={toolButtonClass}
        disabled={next === null}
        onClick={() => next !== null && pager.forward(next)}
      >
        {forwardLabel ?? t("older")}
      </button>
    </nav>
  );
}
