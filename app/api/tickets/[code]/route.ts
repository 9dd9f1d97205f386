import { ticketView } from "@/lib/server/gate/tickets";
import { readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { CodeSegment } from "@/lib/shared/api/params";
import { TicketView } from "@/lib/shared/api/staff";

/** One ticket, live. */
export const GET = route<{ code: string }>("tickets.view", async ({ user, dashboard, params }) =>
  answer(TicketView, await ticketView(dashboard, user, readParams(params, CodeSegment).code)),
);
