import { z } from "zod";
import { GateInfo, GateRef } from "./gate";

/**
 * GET /api/staff/search: the header's search, on every screen. Apart from the other staff answers
 * and built on zod alone (not the contract's schemas), so that the search box and the staff's home
 * page do not carry the whole contract into every phone's first load.
 */

/** One ticket found by its attendee's name (from the mirror), with what its gate verdict needs. */
export const TicketNameMatch = z.object({
  code: z.string(),
  name: z.string(),
  status: z.enum(["active", "inactive", "used"]),
  ticket_type: z.string(),
  valid_days: z.array(GateRef),
  extra_zones: z.array(GateRef),
  checked_in_at: z.string().nullable(),
  /** The NFC of the wristband it was checked in with. */
  wristband: z.string().nullable(),
  /** The zones its ticket type opens; null when the type is not mirrored. */
  type_zone_ids: z.array(z.string()).nullable(),
});
export type TicketNameMatch = z.infer<typeof TicketNameMatch>;

/** At most this many tickets answer a name search. */
export const NAME_MATCHES_MAX = 20;

/**
 * GET /api/staff/search?q=: a code opens its ticket or wristband; a name lists the tickets of the
 * attendees called so, best first (`more`: there were more than NAME_MATCHES_MAX). `loading`: the
 * tickets are still being mirrored (a new instance), with how many names are there so far.
 */
export const SearchResult = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ticket"), code: z.string() }),
  z.object({ kind: z.literal("wristband"), code: z.string() }),
  z.object({
    kind: z.literal("names"),
    query: z.string(),
    matches: z.array(TicketNameMatch).max(NAME_MATCHES_MAX),
    more: z.boolean(),
    loading: z.object({ mirrored: z.number().int().min(0) }).nullable(),
    gate: GateInfo,
  }),
]);
export type SearchResult = z.infer<typeof SearchResult>;
export type NameSearchResult = Extract<SearchResult, { kind: "names" }>;
