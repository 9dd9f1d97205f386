/**
 * The one normalization of names for search: what the mirror stores for every attendee and what a
 * typed query is turned into, so that both sides always agree. Lowercase, accents removed (NFD,
 * combining marks dropped), the few Latin letters that do not decompose spelt out (ß → ss,
 * ø → o…), anything that is not a letter or a digit a word break ("O'Brien" → "o brien",
 * "Jean-Luc" → "jean luc").
 *
 * Punctuation and spaces inside a name do not matter for matching: the word index also holds
 * adjacent words joined around a short one (migration 016: "o brien" is indexed as "o", "brien"
 * and "obrien"), and a query whose words find nothing is tried again with adjacent words joined
 * (`joinedVariants`), so "o brien", "obrien" and "O'Brien" find each other, as do "mac donald" and
 * "MacDonald".
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
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The words of a text, normalized: "Álvarez Dubois" → ["alvarez", "dubois"]. */
export function searchWords(text: string): string[] {
  const normalized = normalizeSearchText(text);
  return normalized ? normalized.split(" ") : [];
}

/**
 * The typed words again with adjacent words joined, for a query whose words found nothing ("mac
 * donald" → "macdonald"): each pair joined, then all of them joined; at most `max` variants.
 */
export function joinedVariants(words: readonly string[], max = 8): string[][] {
  if (words.length < 2) return [];
  const variants: string[][] = [];
  for (let i = 0; i < words.length - 1 && variants.length < max - 1; i++)
    variants.push([...words.slice(0, i), `${words[i]}${words[i + 1]}`, ...words.slice(i + 2)]);
  if (words.length > 2) variants.push([words.join("")]);
  return variants;
}
