import { ticketList } from "@/lib/server/gate/tickets";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gate.tickets, ({ query, user, dashboard }) =>
  ticketList(dashboard, user, query),
);
