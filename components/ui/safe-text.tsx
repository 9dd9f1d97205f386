"use client";

import { useTranslations } from "next-intl";
import { escapeBidi } from "@/lib/shared/format/bidi";

/**
 * Text that people typed (an attendee's name, a comment, a file name), shown so that it cannot
 * disguise itself: bidirectional controls appear as visible escapes ("⟦U+202E⟧"), marked, instead
 * of silently reversing what follows.
 */
export function SafeText({ text }: { text: string | null | undefined }) {
  const t = useTranslations("safeText");
  if (text == null) return null;
  const escaped = escapeBidi(text);
  if (escaped === text) return <>{text}</>;
  return (
    <span title={t("hiddenControls")}>
      {escaped.split(/(⟦U\+[0-9A-F]{4}⟧)/).map((part, i) =>
        /^⟦U\+/.test(part) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
          <span key={i} className="rounded bg-amber-100 px-0.5 font-mono text-xs text-amber-900">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </span>
  );
}
