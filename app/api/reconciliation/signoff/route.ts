import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { signOffNight } from "@/lib/server/reconciliation/night";
import { Signoff, SignoffRequest } from "@/lib/shared/api/reconciliation";

/** Signs a night off: counted money per desk and method, a comment, and a frozen snapshot. */
export const POST = route("reconciliation.signoff", async ({ request, user, dashboard }) =>
  answer(Signoff, await signOffNight(dashboard.db, user, await readBody(request, SignoffRequest)), 201),
);
