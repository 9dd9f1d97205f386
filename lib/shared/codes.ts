/**
 * The one normalisation of a ticket or wristband code, as people type it from paper or a scanner
 * sends it: used by the header search, the code lookups, the desk, the check-in form and the
 * camera scanner, in the browser and again by the route handlers (`CodeParam`).
 *
 * - what a scanner appends or a paste brings (CR, LF, tab, other line breaks, zero-width and
 *   no-break spaces) and every space are dropped: "TK-Y6US 2DVU\r\n" → "TK-Y6US2DVU";
 * - any dash (‐ ‑ ‒ – — − …) is "-";
 * - a ticket code of the known form (the API's and the demo's "TK-" and 8 letters or digits) gets
 *   its one dash back when it is missing or doubled, in capitals: "tk y6us2dvu", "TK--Y6US2DVU",
 *   "tky6us2dvu" → "TK-Y6US2DVU";
 * - an NFC or UHF code typed as hexadecimal pairs with separators ("04:a1:b2:c3:d4:e5:f6",
 *   "04-A1-B2-…", "04 a1 b2 …") is the pairs joined, in capitals: "04A1B2C3D4E5F6".
 *
 * Case is otherwise kept: the Integration API compares codes case-insensitively (api-v1-decisions:
 * "Codes in paths and bodies … are matched case-insensitively"), and stores them as issued.
 */

/** Spaces, line breaks, tabs and the invisible characters a paste or a scanner may add. */
const BLANKS = /[\s\u00a0\u180e\u200b-\u200d\u2060\ufeff]+/gu;
/** Every dash people or word processors type. */
const DASHES = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g;
/** "TK", any number of dashes (none included), then the 8 letters or digits of a ticket code. */
const TICKET = /^tk-*([a-z0-9]{8})$/i;
/** A ticket code whose dash after "TK" is doubled (or more), whatever follows. */
const TICKET_DOUBLE_DASH = /^(tk)-{2,}/i;
/**
 * Hexadecimal pairs with one separator (":", "-" or "."), at least 4 pairs: an NFC UID or a UHF
 * EPC as readers print them. (Pairs typed with spaces are already joined once spaces are dropped.)
 */
const HEX_PAIRS = /^[0-9a-f]{2}([:.-])[0-9a-f]{2}(?:\1[0-9a-f]{2}){2,}$/i;

/** The code people meant, from what they typed or scanned ("" when nothing is left). */
export function normalizeCode(raw: string): string {
  const text = raw.replace(BLANKS, "").replace(DASHES, "-");
  const ticket = TICKET.exec(text);
  if (ticket) return `TK-${ticket[1]!.toUpperCase()}`;
  if (TICKET_DOUBLE_DASH.test(text)) return text.replace(TICKET_DOUBLE_DASH, "TK-");
  if (HEX_PAIRS.test(text)) return text.replace(/[:.-]/g, "").toUpperCase();
  return text;
}

/** Whether two codes name the same ticket or wristband (the API's rule: case does not matter). */
export function sameCode(a: string, b: string): boolean {
  return normalizeCode(a).toLowerCase() === normalizeCode(b).toLowerCase();
}

/**
 * Whether typed text reads as a code rather than a name: after normalising, a ticket code of the
 * known form, or one word of code characters with a digit in it. A name is letters and spaces; a
 * code has digits ("TK-Y6US2DVU", "04A1B2…"), even when typed with spaces ("TK Y6US 2DVU").
 */
export function looksLikeCode(raw: string): boolean {
  const code = normalizeCode(raw);
  if (/^TK-[A-Z0-9]{8}$/.test(code)) return true;
  return code.length >= 3 && code.length <= 64 && /\d/.test(code) && /^[\p{L}\p{N}_.:-]+$/u.test(code);
}
