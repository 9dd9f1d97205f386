import { ticketView } from "@/lib/server/gate/tickets";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gate.ticket, ({ params, user, dashboard }) =>
  ticketView(dashboard, user, params.code),
);
