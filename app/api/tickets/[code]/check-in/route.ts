import { checkInTicket } from "@/lib/server/gate/tickets";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.gate.checkIn, async ({ params, body, user, dashboard }) => ({
  ticket: await checkInTicket(dashboard, user, params.code, body),
}));
