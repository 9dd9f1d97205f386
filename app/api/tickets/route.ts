import { ticketList } from "@/lib/server/gate/tickets";
import { readQuery } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { TicketListQuery } from "@/lib/shared/api/params";
import { TicketListView } from "@/lib/shared/api/staff";

/** One page of tickets, live: a status filter and "changed since". */
export const GET = route("tickets.view", async ({ request, user, dashboard }) =>
  answer(TicketListView, await ticketList(dashboard, user, readQuery(request, TicketListQuery))),
);
