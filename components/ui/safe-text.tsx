"use client";

import { useTranslations } from "next-intl";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { joinClasses } from "./class-names";

/**
 * THE way to show text that people or the upstream wrote (an attendee's name, an e-mail, a comment,
 * a reason, a device id, a file name, a zone or product name): every screen shows such text through
 * this component (DataTable does it for its text cells), so that none can disguise itself or break
 * the layout.
 *
 * - Isolated (`<bdi>`): right-to-left letters cannot reorder what is around them.
 * - Bidirectional controls appear as visible escapes ("⟦U+202E⟧"), marked, instead of silently
 *   reversing what follows.
 * - `wrap` (default `anywhere`): a long unbroken name or id wraps wherever it must, so nothing
 *   scrolls sideways on a phone; `truncate` keeps one line with an ellipsis and the whole text in
 *   its `title`; `none` leaves wrapping to the surroundings (table cells that scroll in their box).
 * - Marked `translate="no"`: data is not words of the console (nor for a browser's translator; the
 *   test that walks every screen in Spanish skips it). `words`: the text may be the console's own
 *   words too (a table's text cells), so it is not marked.
 */
export function SafeText({
  text,
  wrap = "anywhere",
  words = false,
  className,
}: {
  text: string | null | undefined;
  wrap?: "anywhere" | "truncate" | "none";
  words?: boolean;
  className?: string;
}) {
  const t = useTranslations("safeText");
  if (text == null) return null;
  const escaped = escapeBidi(text);
  const controls = escaped !== text;
  const title = wrap === "truncate" ? escaped : controls ? t("hiddenControls") : undefined;
  return (
    <bdi
      title={title}
      translate={words ? undefined : "no"}
      className={joinClasses(
        wrap === "anywhere" && "[overflow-wrap:anywhere]",
        wrap === "truncate" && "inline-block max-w-full truncate align-bottom",
        className,
      )}
    >
      {controls
        ? escaped.split(/(⟦U\+[0-9A-F]{4}⟧)/).map((part, i) =>
            /^⟦U\+/.test(part) ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
              <span key={i} className="rounded bg-amber-100 px-0.5 font-mono text-xs text-amber-900">
                {part}
              </span>
            ) : (
              part
            ),
          )
        : text}
    </bdi>
  );
}
