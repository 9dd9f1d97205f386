/**
 * The one normalization of names for search: what the mirror stores for every attendee and what a
 * typed query is turned into, so that both sides always agree. Lowercase, accents removed (NFD,
 * combining marks dropped), the few Latin letters that do not decompose spelt out (ß → ss,
 * ø → o…), apostrophes dropped ("O'Brien" → "obrien"), anything else that is not a letter or a
 * digit a word break ("Jean-Luc" → "jean luc").
 */

/** Letters NFD leaves whole, as people type them on a keyboard without them. */
const SPELT_OUT: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};
const SPELT_OUT_RE = new RegExp(`[${Object.keys(SPELT_OUT).join("")}]`, "g");

/** "  María-José  Álvarez " → "maria jose alvarez" (words separated by one space). */
export function normalizeSearchText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(SPELT_OUT_RE, (c) => SPELT_OUT[c] ?? c)
    .replace(/['’ʼ`´]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The words of a text, normalized: "Álvarez Dubois" → ["alvarez", "dubois"]. */
export function searchWords(text: string): string[] {
  const normalized = normalizeSearchText(text);
  return normalized ? normalized.split(" ") : [];
}
