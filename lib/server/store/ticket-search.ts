import "server-only";
import type { TicketStatus } from "@/lib/contract";
import type { Queryable } from "@/lib/db/db";
import { normalizeSearchText } from "@/lib/shared/search-text";

/**
 * Tickets by attendee name, from the mirror's word index (migration 009: `m_ticket_words`, one row
 * per word of each normalized name). Every typed word must start a word of the name; a word typed
 * whole counts more than a prefix; then names that start with the first typed word, then by name.
 */

export interface TicketNameRow {
  code: string;
  name: string;
  status: TicketStatus;
  ticket_type: string;
  /** What the gate's verdict needs, from the mirrored ticket. */
  valid_days: { id: string; name: string }[];
  extra_zones: { id: string; name: string }[];
  checked_in_at: string | null;
  wristband: string | null;
  /** The zones its ticket type opens; null when the type is not mirrored. */
  type_zone_ids: string[] | null;
}

/** The first string after every string that starts with `prefix`, in byte ("C" collation) order. */
export function prefixUpperBound(prefix: string): string {
  const chars = Array.from(prefix);
  const last = chars.pop();
  if (last === undefined) throw new Error("an empty prefix has no upper bound");
  return chars.join("") + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1);
}

/** At most this many typed words are matched (one bit each in the query's masks). */
export const MAX_NAME_WORDS = 8;

/**
 * Up to `limit` tickets whose name has, for each of `words` (normalized, distinct, at most
 * MAX_NAME_WORDS), a word starting with it; best first. One pass over the index rows of the typed
 * words, grouped by ticket: a bit per typed word that some word of the name starts with (all must
 * be set) and a bit per typed word that is a whole word of the name (the more, the better).
 */
export async function ticketsByNameWords(
  db: Queryable,
  words: string[],
  limit: number,
): Promise<TicketNameRow[]> {
  if (words.length === 0) return [];
  if (words.length > MAX_NAME_WORDS) throw new Error(`at most ${MAX_NAME_WORDS} words`);
  return db.query<TicketNameRow>(
    `with typed as (
       select tok, hi, (i - 1)::int as bit from unnest($1::text[], $2::text[]) with ordinality as x(tok, hi, i)
     ),
     best as (
       select w.ticket_id, min(w.search_name) as search_name,
         bit_count(bit_or(case when w.word = typed.tok collate "C" then 1 << typed.bit else 0 end)::bit(${MAX_NAME_WORDS})) as whole
       from typed join m_ticket_words w
         on w.word >= typed.tok collate "C" and w.word < typed.hi collate "C"
       group by w.ticket_id
       having bit_or(1 << typed.bit) = (1 << $3::int) - 1
       order by whole desc, starts_with(min(w.search_name), $4) desc, min(w.search_name), w.ticket_id
       limit $5
     )
     select t.code, t.status, t.data->'attendee'->>'name' as name,
       t.data->'ticket_type'->>'name' as ticket_type,
       coalesce(t.data->'valid_days', '[]') as valid_days, coalesce(t.data->'extra_zones', '[]') as extra_zones,
       t.data->>'checked_in_at' as checked_in_at, t.data->'wristband'->>'nfc' as wristband,
       case when tt.id is null then null else
         coalesce((select array_agg(z->>'id') from jsonb_array_elements(tt.data->'zones') z), '{}') end
         as type_zone_ids
     from best b join m_tickets t on t.id = b.ticket_id left join m_ticket_types tt on tt.id = t.ticket_type_id
     order by b.whole desc, starts_with(b.search_name, $4) desc, b.search_name, b.ticket_id`,
    [words, words.map(prefixUpperBound), words.length, words[0], limit],
  );
}

/**
 * Gives tickets mirrored before migration 009 their normalized name (and so their words), a page
 * at a time. Returns how many it filled; nothing to do costs one query.
 */
export async function fillTicketSearchNames(db: Queryable, pageSize = 1000): Promise<number> {
  let filled = 0;
  for (;;) {
    const rows = await db.query<{ id: string; name: string | null }>(
      "select id, data->'attendee'->>'name' as name from m_tickets where search_name is null limit $1",
      [pageSize],
    );
    if (rows.length === 0) return filled;
    await db.query(
      `update m_tickets t set search_name = x.search_name
       from jsonb_to_recordset($1::jsonb) as x(id text, search_name text) where t.id = x.id`,
      [JSON.stringify(rows.map((r) => ({ id: r.id, search_name: normalizeSearchText(r.name ?? "") })))],
    );
    filled += rows.length;
  }
}

/**
 * While the first walk of the tickets is not done (a new instance mirroring the event), how many
 * tickets the mirror holds so far; null once a walk has completed. The API tells no total, so
 * "N of M" cannot be known: the screen says how many names are there and that more are coming.
 */
export async function ticketNamesLoading(db: Queryable): Promise<{ mirrored: number } | null> {
  const [walk] = await db.query<{ done: boolean }>(
    "select last_success_at is not null as done from sync_state where resource = 'tickets'",
  );
  if (walk?.done) return null;
  const [row] = await db.query<{ n: number }>("select count(*)::int as n from m_tickets");
  return { mirrored: row?.n ?? 0 };
}
