import { cancelTicket } from "@/lib/server/gate/tickets";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.gate.cancel, async ({ params, body, user, dashboard }) => ({
  ticket: await cancelTicket(dashboard, user, params.code, body.idempotency_key),
}));
