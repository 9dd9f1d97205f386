import { deskQuote } from "@/lib/server/desk/desk";
import { readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { DeskQuoteQuery } from "@/lib/shared/api/params";
import { DeskQuote } from "@/lib/shared/api/staff";

/** The live bonus quote for the amounts on the desk's screen, for this person (cap and in-flight rules). */
export const GET = route("topups.create", async ({ request, user, dashboard }) =>
  answer(DeskQuote, await deskQuote(dashboard, user, readQuery(request, DeskQuoteQuery))),
);
