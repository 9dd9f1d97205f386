import "server-only";
import type { Db } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import { NAME_MATCHES_MAX, type NameSearchResult, type SearchResult } from "@/lib/shared/api/search";
import { searchWords } from "@/lib/shared/search-text";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { liveLookup } from "../http/lookup-budget";
import { findUpstream } from "../http/upstream-errors";
import { MAX_NAME_WORDS, ticketsByNameWords } from "../store/ticket-search";
import type { RequestOptions } from "../upstream/client";

/** The longest code a ticket, NFC or UHF can have (`CodeParam`). */
const MAX_CODE_LENGTH = 64;

/**
 * The header's search box: a ticket code, a wristband's NFC / UHF code, or an attendee's name.
 *
 * Codes win: a single word with a digit in it is looked up upstream (live) first, as a ticket then
 * a wristband. Anything else is a name, looked up in the mirror, so that finding people by name
 * spends none of the key's read quota; a single word no name matches is still tried as a code
 * (a code of letters only).
 */
export async function search(dashboard: Dashboard, user: SessionUser, text: string): Promise<SearchResult> {
  // A code is looked up live, within the user's budget of lookups; a name costs no upstream read.
  const lookup = () => findCode(dashboard, text, liveLookup(dashboard, user));
  const singleWord = !/\s/.test(text) && text.length <= MAX_CODE_LENGTH;
  if (singleWord && /\d/.test(text)) {
    const found = await lookup();
    if (found) return found;
    throw new ConsoleError("nothing_found", `Nothing with the code ${text}: no ticket, no wristband.`);
  }
  const names = await findTicketsByName(dashboard.db, text);
  if (names.matches.length > 0) return names;
  const found = singleWord ? await lookup() : null;
  if (found) return found;
  throw new ConsoleError(
    "nothing_found",
    `Nothing found for “${text}”: no attendee with that name${singleWord ? ", no ticket or wristband with that code" : ""}.`,
  );
}

/** A ticket, else a wristband (NFC or UHF), with exactly this code; null when neither exists. */
async function findCode(
  dashboard: Pick<Dashboard, "upstream">,
  code: string,
  lookup: RequestOptions,
): Promise<SearchResult | null> {
  const ticket = await findUpstream(() => dashboard.upstream.ticketByCode(code, lookup));
  if (ticket) return { kind: "ticket", code: ticket.code };
  const wristband = await findUpstream(() => dashboard.upstream.wristbandByCode(code, lookup));
  if (wristband) return { kind: "wristband", code: wristband.nfc };
  return null;
}

/**
 * Tickets by attendee name from the mirror: accent- and case-insensitive, every typed word the
 * start of a word of the name ("alvarez" finds "Álvarez Dubois", "alv dub" too), best first, at
 * most NAME_MATCHES_MAX.
 */
export async function findTicketsByName(db: Db, text: string): Promise<NameSearchResult> {
  // Words beyond MAX_NAME_WORDS are ignored: no name needs more to be told apart.
  const words = [...new Set(searchWords(text))].slice(0, MAX_NAME_WORDS);
  const rows = await ticketsByNameWords(db, words, NAME_MATCHES_MAX + 1);
  return {
    kind: "names",
    query: text,
    matches: rows.slice(0, NAME_MATCHES_MAX),
    more: rows.length > NAME_MATCHES_MAX,
  };
}
