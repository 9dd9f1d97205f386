/**
 * Bidirectional-text controls (embeddings, overrides, isolates and marks) in text that people
 * typed — attendee names, comments, file names — can make a name read backwards or hide what
 * follows (a U+202E before "gpj.exe" makes it read "exe.jpg"). Wherever such text is shown, each one
 * is replaced by a visible escape, e.g. "⟦U+202E⟧", so it cannot reorder what is around it.
 */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeBidi(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (c) => `⟦U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟧`,
  );
}

/** Whether text holds a bidi control (a screen may flag it). */
export function hasBidiControls(text: string): boolean {
  return new RegExp(BIDI_CONTROLS.source).test(text);
}
