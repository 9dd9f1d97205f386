import { z } from "zod";
import { checkInTicket } from "@/lib/server/gate/tickets";
import { readBody, readParams } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { route } from "@/lib/server/http/route";
import { CodeParam, CodeSegment, IdempotencyKey } from "@/lib/shared/api/params";
import { TicketAnswer } from "@/lib/shared/api/staff";

const Body = z.object({
  nfc: CodeParam,
  uhf: CodeParam.optional(),
  idempotency_key: IdempotencyKey,
  /** "Check in anyway" on a day the ticket is not valid for (tickets.checkin_override). */
  override: z.boolean().optional(),
});

/** Check a ticket in, linking a wristband (entered or scanned); on a wrong day only with an override. */
export const POST = route<{ code: string }>(
  "tickets.checkin",
  async ({ request, user, dashboard, params }) => {
    const { code } = readParams(params, CodeSegment);
    const body = await readBody(request, Body);
    return answer(TicketAnswer, { ticket: await checkInTicket(dashboard, user, code, body) });
  },
);
