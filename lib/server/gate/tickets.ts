import "server-only";
import type { z } from "zod";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { TicketListQuery } from "@/lib/shared/api/params";
import type { Ticket, TicketListView, TicketView } from "@/lib/shared/api/staff";
import { dayOfToday, type GateVerdict, ticketVerdict } from "@/lib/shared/gate-verdict";
import { can } from "@/lib/shared/permissions";
import type { SessionUser } from "../auth/session";
import type { Dashboard } from "../dashboard";
import { auditedWrite } from "../http/audited-write";
import { liveLookup } from "../http/lookup-budget";
import { callUpstream } from "../http/upstream-errors";
import { recordAudit } from "../store/audit-log";
import { eventFormat, ticketTypeZoneIds } from "../store/event-settings";
import { gateInfo } from "./gate";

/** One ticket, live, with what its verdict needs (the event's days, zones, the zones of its type). */
export async function ticketView(dashboard: Dashboard, user: SessionUser, code: string): Promise<TicketView> {
  const ticket = await callUpstream(() => dashboard.upstream.ticketByCode(code, liveLookup(dashboard, user)));
  const [gate, typeZoneIds] = await Promise.all([
    gateInfo(dashboard),
    ticketTypeZoneIds(dashboard.db, ticket.ticket_type.id),
  ]);
  return { ticket, timeZone: gate.timeZone, gate, typeZoneIds };
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

export interface CheckInBody {
  nfc: string;
  uhf?: string;
  idempotency_key: string;
  /** "Check in anyway" on a day the ticket is not valid for (supervisors and managers). */
  override?: boolean;
}

/** What the audit log keeps of a day verdict: the valid days and the day it was. */
function dayDetail(verdict: GateVerdict) {
  return {
    valid_days: verdict.validDays.map((d) => d.name),
    today: dayOfToday(verdict.today)?.name ?? null,
  };
}

/**
 * Check a ticket in, linking a wristband (entered or scanned); audited, sent once per key. The
 * ticket is read live first and judged with the gate's rule (lib/shared/gate-verdict.ts) at the
 * dashboard's clock: on a day it is not valid for, the check-in is refused (409
 * ticket_not_valid_today, naming its days) unless the body says `override` and the role may
 * override (`tickets.checkin_override`); an override is logged as `tickets.check_in_override`
 * with the valid days. Refusals are logged too. Before the first sync has brought the event's
 * days, the console cannot tell, and leaves the check-in to the upstream.
 */
export async function checkInTicket(
  dashboard: Dashboard,
  user: SessionUser,
  code: string,
  body: CheckInBody,
): Promise<Ticket> {
  const wristband = { nfc: body.nfc, ...(body.uhf ? { uhf: body.uhf } : {}) };
  const current = await callUpstream(() =>
    dashboard.upstream.ticketByCode(code, liveLookup(dashboard, user)),
  );
  const gate = await gateInfo(dashboard);
  const verdict = ticketVerdict(
    current,
    { days: gate.days, timeZone: gate.timeZone, now: new Date(gate.now), gateZone: null },
    null,
  );
  const wrongDay = verdict.kind === "not_valid_today";
  const refusal = wrongDay ? wrongDayRefusal(user, verdict, body.override === true) : null;
  if (refusal) {
    await recordAudit(dashboard.db, {
      user,
      action: "tickets.check_in",
      target: current.code,
      idempotencyKey: body.idempotency_key,
      outcome: refusal.code,
      detail: { ...wristband, ...dayDetail(verdict) },
    });
    throw refusal;
  }
  return auditedWrite(
    dashboard.db,
    {
      user,
      action: wrongDay ? "tickets.check_in_override" : "tickets.check_in",
      target: current.code,
      idempotencyKey: body.idempotency_key,
      detail: { ...wristband, ...(wrongDay ? { override: true, ...dayDetail(verdict) } : {}) },
      summarize: (t: Ticket) => ({ status: t.status }),
    },
    (opts) => dashboard.upstream.checkIn(current.code, { wristband, device_id: "dashboard" }, opts),
  );
}

/** Why a check-in on a day the ticket is not valid for is refused; null when the override stands. */
function wrongDayRefusal(user: SessionUser, verdict: GateVerdict, override: boolean): ConsoleError | null {
  const days = verdict.validDays.map((d) => d.name).join(", ") || "no day";
  const today = dayOfToday(verdict.today);
  if (!override)
    return new ConsoleError(
      "ticket_not_valid_today",
      `This ticket is not valid today${today ? ` (${today.name})` : ""}: it is valid on ${days}. A supervisor or a manager may check it in anyway.`,
      { param: "override" },
    );
  if (!can(user.role, "tickets.checkin_override"))
    return new ConsoleError(
      "forbidden",
      `Only a supervisor or a manager may check in a ticket on a day it is not valid for (it is valid on ${days}).`,
    );
  return null;
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
