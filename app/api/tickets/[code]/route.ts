import { handle } from "@/lib/server/http/handle";
import { ticketView } from "@/lib/server/gate/tickets";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gate.ticket, ({ params, user, dashboard }) =>
  ticketView(dashboard, user, params.code),
);
