"use client";

import { type ReactNode, useLayoutEffect, useRef } from "react";

/** Never scaled below this: past it the content is cut rather than unreadable. */
const MIN_SCALE = 0.5;

/**
 * Shows its content whole in the box it is given, scaled down when it is taller (a TV cannot
 * scroll): the content is laid out wider by 1/scale, so it wraps less, then scaled to fit. Fitted
 * again when `version` changes (new figures) and when the window is resized.
 */
export function FitToBox({ version, children }: { version: unknown; children: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: fits again for each new version of the figures
  useLayoutEffect(() => {
    const box = outer.current;
    const content = inner.current;
    if (!box || !content) return;
    const fitContent = () => {
      const height = box.clientHeight;
      const width = box.clientWidth;
      let scale = 1;
      // Wider content wraps less and is shorter: a few rounds settle the scale.
      for (let round = 0; round < 4; round++) {
        content.style.width = `${width / scale}px`;
        const next = Math.max(MIN_SCALE, Math.min(1, height / content.scrollHeight));
        if (Math.abs(next - scale) < 0.005) break;
        scale = next;
      }
      content.style.width = `${width / scale}px`;
      if (content.scrollHeight * scale > height) scale = Math.max(MIN_SCALE, height / content.scrollHeight);
      content.style.width = `${width / scale}px`;
      content.style.transform = scale < 1 ? `scale(${scale})` : "";
    };
    fitContent();
    window.addEventListener("resize", fitContent);
    return () => window.removeEventListener("resize", fitContent);
  }, [version]);
  return (
    <div ref={outer} className="h-full overflow-hidden">
      <div ref={inner} className="origin-top-left">
        {children}
      </div>
    </div>
  );
}
