import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { waiveTerminal } from "@/lib/server/night/completeness";
import { NightCompleteness, WaiverRequest } from "@/lib/shared/api/reconciliation";

/** A supervisor waives a terminal the night waits for (who and why are kept); answers the night's completeness. */
export const POST = route("reconciliation.signoff", async ({ request, user, dashboard }) =>
  answer(
    NightCompleteness,
    await waiveTerminal(dashboard.db, user, await readBody(request, WaiverRequest)),
    201,
  ),
);
