import { handle } from "@/lib/server/http/handle";
import { keepWristband } from "@/lib/server/review/review";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.review.keep, async ({ params, body, user, dashboard }) => ({
  wristband: await keepWristband(dashboard, user, params.code, body.idempotency_key),
}));
