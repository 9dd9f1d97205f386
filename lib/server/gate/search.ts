import "server-only";
import { ConsoleError } from "@/lib/shared/api/errors";
import { NAME_MATCHES_MAX, type NameSearchResult, type SearchResult } from "@/lib/shared/api/search";
import { looksLikeCode, normalizeCode } from "@/lib/shared/codes";
import { joinedVariants, searchWords } from "@/lib/shared/search-text";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { liveLookup } from "../http/lookup-budget";
import { findUpstream } from "../http/upstream-errors";
import { MAX_NAME_WORDS, ticketNamesLoading, ticketsByNameWords } from "../store/ticket-search";
import type { RequestOptions } from "../upstream/client";
import { gateInfo } from "./gate";

/** The longest code a ticket, NFC or UHF can have (`CodeParam`). */
const MAX_CODE_LENGTH = 64;

/**
 * The header's search box: a ticket code, a wristband's NFC / UHF code, or an attendee's name.
 *
 * Codes win: text that reads as a code (`looksLikeCode`: one word with a digit once scanner
 * suffixes and spaces are dropped, "tk y6us 2dvu" included) is looked up upstream (live) first,
 * normalised (`normalizeCode`), as a ticket then a wristband. Anything else is a name, looked up in
 * the mirror, so that finding people by name spends none of the key's read quota; a single word no
 * name matches is still tried as a code (a code of letters only). Text with spaces that no code
 * has is then tried as a name ("Ana María 2").
 */
export async function search(dashboard: Dashboard, user: SessionUser, text: string): Promise<SearchResult> {
  const code = normalizeCode(text);
  // A code is looked up live, within the user's budget of lookups; a name costs no upstream read.
  const lookup = () => findCode(dashboard, code, liveLookup(dashboard, user));
  const singleWord = !/\s/.test(text) && code.length <= MAX_CODE_LENGTH;
  const codeFirst = looksLikeCode(text);
  if (codeFirst) {
    const found = await lookup();
    if (found) return found;
    if (singleWord)
      throw new ConsoleError("nothing_found", `Nothing with the code ${code}: no ticket, no wristband.`);
  }
  const names = await findTicketsByName(dashboard, text);
  if (names.matches.length > 0) return names;
  const found = singleWord && !codeFirst && code ? await lookup() : null;
  if (found) return found;
  // While the names are still being mirrored, "nothing found" would be a lie: say what is known.
  if (names.loading) return names;
  throw new ConsoleError(
    "nothing_found",
    `Nothing found for “${text}”: no attendee with that name${singleWord ? ", no ticket or wristband with that code" : ""}.`,
  );
}

/** A ticket, else a wristband (NFC or UHF), with this code (any case); null when neither exists. */
async function findCode(
  dashboard: Pick<Dashboard, "upstream">,
  code: string,
  lookup: RequestOptions,
): Promise<SearchResult | null> {
  if (!code) return null;
  const ticket = await findUpstream(() => dashboard.upstream.ticketByCode(code, lookup));
  if (ticket) return { kind: "ticket", code: ticket.code };
  const wristband = await findUpstream(() => dashboard.upstream.wristbandByCode(code, lookup));
  if (wristband) return { kind: "wristband", code: wristband.nfc };
  return null;
}

/**
 * Tickets by attendee name from the mirror: accent- and case-insensitive, every typed word the
 * start of a word of the name ("alvarez" finds "Álvarez Dubois", "alv dub" too), punctuation and
 * inner spaces ignored ("o brien" finds "O'Brien", "mac donald" finds "MacDonald": typed words
 * joined when they find nothing alone), best first, at most NAME_MATCHES_MAX. While the tickets
 * are still being mirrored, `loading` says how many names are there so far.
 */
export async function findTicketsByName(
  dashboard: Pick<Dashboard, "db" | "clock">,
  text: string,
): Promise<NameSearchResult> {
  const { db } = dashboard;
  // Words beyond MAX_NAME_WORDS are ignored: no name needs more to be told apart.
  const words = [...new Set(searchWords(text))].slice(0, MAX_NAME_WORDS);
  let rows = await ticketsByNameWords(db, words, NAME_MATCHES_MAX + 1);
  for (const variant of rows.length === 0 ? joinedVariants(words) : []) {
    rows = await ticketsByNameWords(db, variant, NAME_MATCHES_MAX + 1);
    if (rows.length > 0) break;
  }
  const [loading, gate] = await Promise.all([ticketNamesLoading(db), gateInfo(dashboard)]);
  return {
    kind: "names",
    query: text,
    matches: rows.slice(0, NAME_MATCHES_MAX),
    more: rows.length > NAME_MATCHES_MAX,
    loading,
    gate,
  };
}
