import { keyOf } from "@/components/ui/use-endpoint";
import { call } from "@/lib/shared/api/call";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { SearchResult } from "@/lib/shared/api/search";

/** The cache key of one search, shared by the header's box and the results page. */
export const searchKey = (text: string) => keyOf(endpoints.gate.search, { query: { q: text } });

/** Runs the header search for a typed or scanned text (a code or a name). */
export function fetchSearch(text: string): Promise<SearchResult> {
  return call(endpoints.gate.search, { query: { q: text } });
}

/** Where a result is shown: its ticket or wristband page, or the list of names found. */
export function pageOf(result: SearchResult, text: string): string {
  if (result.kind === "names") return `/search?q=${encodeURIComponent(text)}`;
  return `/${result.kind === "ticket" ? "tickets" : "wristbands"}/${encodeURIComponent(result.code)}`;
}
