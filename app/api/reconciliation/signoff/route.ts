import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { nightTolerance } from "@/lib/server/night/night";
import { signOffNight } from "@/lib/server/night/signoff";
import { Signoff, SignoffRequest } from "@/lib/shared/api/reconciliation";

/**
 * Signs a night off: counted money per desk and method, a comment, and a frozen snapshot. 201 when
 * stored; a replay of the form's idempotency key answers the original (200, `Idempotent-Replayed`).
 */
export const POST = route("reconciliation.signoff", async ({ request, user, dashboard }) => {
  const body = await readBody(request, SignoffRequest);
  const outcome = await signOffNight(dashboard.db, user, body, {
    tolerance: nightTolerance(dashboard.config),
  });
  const response = answer(Signoff, outcome.signoff, outcome.created ? 201 : 200);
  if (!outcome.created) response.headers.set("idempotent-replayed", "true");
  return response;
});
