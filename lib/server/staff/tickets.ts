import "server-only";
import type { z } from "zod";
import type { TicketListQuery } from "@/lib/shared/api/params";
import type { Ticket, TicketListView, TicketView } from "@/lib/shared/api/staff";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { auditedWrite } from "../http/audited-write";
import { liveLookup } from "../http/lookup-budget";
import { callUpstream } from "../http/upstream-errors";
import { eventFormat } from "../store/event-settings";

/** One ticket, live, with the event's zone for its times. */
export async function ticketView(dashboard: Dashboard, user: SessionUser, code: string): Promise<TicketView> {
  const ticket = await callUpstream(() => dashboard.upstream.ticketByCode(code, liveLookup(dashboard, user)));
  return { ticket, timeZone: (await eventFormat(dashboard.db)).timeZone };
}

/** One page (50) of tickets, live: a status filter and "changed since". */
export async function ticketList(
  dashboard: Dashboard,
  user: SessionUser,
  query: z.infer<typeof TicketListQuery>,
): Promise<TicketListView> {
  const page = await callUpstream(() =>
    dashboard.upstream.tickets({ ...query, limit: 50 }, liveLookup(dashboard, user)),
  );
  return { ...page, timeZone: (await eventFormat(dashboard.db)).timeZone };
}

/** Check a ticket in, linking a wristband (entered or scanned); audited, sent once per key. */
export function checkInTicket(
  dashboard: Dashboard,
  user: SessionUser,
  code: string,
  body: { nfc: string; uhf?: string; idempotency_key: string },
): Promise<Ticket> {
  const wristband = { nfc: body.nfc, ...(body.uhf ? { uhf: body.uhf } : {}) };
  return auditedWrite(
    dashboard.db,
    {
      user,
      action: "tickets.check_in",
      target: code,
      idempotencyKey: body.idempotency_key,
      detail: { ...wristband },
      summarize: (t: Ticket) => ({ status: t.status }),
    },
    (opts) => dashboard.upstream.checkIn(code, { wristband, device_id: "dashboard" }, opts),
  );
}

/** Cancel a ticket (manager; the screen asks for a confirmation first); audited. */
export function cancelTicket(
  dashboard: Dashboard,
  user: SessionUser,
  code: string,
  idempotencyKey: string,
): Promise<Ticket> {
  return auditedWrite(
    dashboard.db,
    { user, action: "tickets.cancel", target: code, idempotencyKey },
    (opts) => dashboard.upstream.cancelTicket(code, opts),
  );
}
