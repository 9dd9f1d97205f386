import { search } from "@/lib/server/gate/search";
import { readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { SearchQuery } from "@/lib/shared/api/params";
import { SearchResult } from "@/lib/shared/api/search";

/** The header's search box: a ticket, NFC or UHF code (looked up live), or an attendee's name (mirror). */
export const GET = route("tickets.view", async ({ request, user, dashboard }) =>
  answer(SearchResult, await search(dashboard, user, readQuery(request, SearchQuery).q)),
);
