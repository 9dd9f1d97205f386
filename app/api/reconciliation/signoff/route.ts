import { answered, handle } from "@/lib/server/http/handle";
import { nightTolerance } from "@/lib/server/night/night";
import { signOffNight } from "@/lib/server/night/signoff";
import { endpoints } from "@/lib/shared/api/endpoints";

/** A replay of the form's idempotency key answers the original: 200 with `Idempotent-Replayed`. */
export const POST = handle(endpoints.night.signoff, async ({ body, user, dashboard }) => {
  const outcome = await signOffNight(dashboard.db, user, body, {
    tolerance: nightTolerance(dashboard.config),
    now: dashboard.clock(),
  });
  if (outcome.created) return outcome.signoff;
  return answered(outcome.signoff, { status: 200, headers: { "idempotent-replayed": "true" } });
});
