import { fetchJson } from "@/lib/shared/api/client";
import { SearchResult } from "@/lib/shared/api/search";

/** The cache key of one search, shared by the header's box and the results page. */
export const searchKey = (text: string) => ["search", text] as const;

/** Runs the header search for a typed or scanned text (a code or a name). */
export function fetchSearch(text: string): Promise<SearchResult> {
  return fetchJson(`/api/staff/search?q=${encodeURIComponent(text)}`, SearchResult);
}

/** Where a result is shown: its ticket or wristband page, or the list of names found. */
export function pageOf(result: SearchResult, text: string): string {
  if (result.kind === "names") return `/search?q=${encodeURIComponent(text)}`;
  return `/${result.kind === "ticket" ? "tickets" : "wristbands"}/${encodeURIComponent(result.code)}`;
}
