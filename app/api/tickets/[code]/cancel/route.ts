import { z } from "zod";
import { cancelTicket } from "@/lib/server/gate/tickets";
import { readBody, readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { CodeSegment, IdempotencyKey } from "@/lib/shared/api/params";
import { TicketAnswer } from "@/lib/shared/api/staff";

const Body = z.object({ idempotency_key: IdempotencyKey });

/** Cancel a ticket (manager; the screen asks for a confirmation first). */
export const POST = route<{ code: string }>(
  "tickets.cancel",
  async ({ request, user, dashboard, params }) => {
    const { code } = readParams(params, CodeSegment);
    const body = await readBody(request, Body);
    return answer(TicketAnswer, { ticket: await cancelTicket(dashboard, user, code, body.idempotency_key) });
  },
);
