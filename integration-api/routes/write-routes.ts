import * as p from "../../lib/contract/params";
import * as q from "../../lib/contract/requests";
import * as r from "../../lib/contract/resources";
import { errorResponse, json, v1Route } from "./route-kit";

/** Definitions of every write endpoint of v1. Each needs an Idempotency-Key. */

const body = <T extends import("zod").ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});
const conflict = (codes: string) => errorResponse(`Conflict: ${codes}. Remembered for the Idempotency-Key.`);
const replayed = errorResponse("idempotency_key_reused: the key was used with a different body.");

export const createTicketsRoute = v1Route({
  method: "post",
  path: "/tickets",
  summary: "Create tickets (1 to 500, all or nothing)",
  tags: ["Tickets"],
  scope: "tickets.write",
  bucket: "write",
  request: { body: body(q.CreateTicketsRequest) },
  responses: {
    201: json(r.ListEnvelope(r.Ticket), "The created tickets."),
    409: conflict("ticket_code_taken (param names the row), idempotency_key_in_use"),
    422: replayed,
  },
});

export const cancelTicketRoute = v1Route({
  method: "post",
  path: "/tickets/{code}/cancel",
  summary: "Cancel a ticket (active → inactive)",
  tags: ["Tickets"],
  scope: "tickets.write",
  bucket: "write",
  request: { params: p.TicketCodeParam },
  responses: {
    200: json(r.Ticket, "The cancelled ticket."),
    404: errorResponse("ticket_not_found."),
    409: conflict("ticket_already_used, ticket_inactive, idempotency_key_in_use"),
    422: replayed,
  },
});

export const checkInRoute = v1Route({
  method: "post",
  path: "/tickets/{code}/check-in",
  summary: "Accredit a ticket (active → used), creating or linking its wristband",
  tags: ["Access"],
  scope: "checkins.write",
  bucket: "checkin",
  request: { params: p.TicketCodeParam, body: body(q.CheckInRequest) },
  responses: {
    200: json(r.Ticket, "The accredited ticket (unchanged when repeated with its own wristband)."),
    404: errorResponse("ticket_not_found."),
    409: conflict("ticket_inactive, ticket_already_used, wristband_already_linked, wristband_not_active"),
    422: replayed,
  },
});

export const accessCheckRoute = v1Route({
  method: "post",
  path: "/access-checks",
  summary: "Validate a zone for a wristband or ticket code (always logged)",
  description:
    "`reason` is null when allowed; else zone_not_allowed, day_not_valid, unknown_code, a wristband status, or ticket_inactive for a cancelled ticket not yet accredited.",
  tags: ["Access"],
  scope: "checkins.write",
  bucket: "access",
  request: { body: body(q.AccessCheckRequest) },
  responses: {
    200: json(q.AccessCheck, "The verdict."),
    409: conflict("idempotency_key_in_use"),
    422: replayed,
  },
});

export const createTopupRoute = v1Route({
  method: "post",
  path: "/topups",
  summary: "Top up or withdraw a wristband's balance",
  description:
    "Quote first (`GET /topup-bonuses/quote`), then send the quoted `bonus_amount` and `bonus_rule`: the server recomputes them and answers 409 bonus_mismatch when they differ. A granted bonus is its own promo record.",
  tags: ["Cashless"],
  scope: "cashless.write",
  bucket: "write",
  request: { body: body(q.CreateTopupRequest) },
  responses: {
    201: json(r.Topup, "The paid top-up or withdrawal."),
    404: errorResponse("wristband_not_found."),
    409: conflict("wristband_not_active, insufficient_balance, bonus_mismatch, idempotency_key_in_use"),
    422: replayed,
  },
});

export const reviewRoute = v1Route({
  method: "post",
  path: "/wristbands/{code}/review",
  summary: "Resolve a pending_review pair: keep this wristband [ext]",
  description:
    "The kept wristband becomes active and linked to the ticket; the others are blocked and their balances move to it as paired transfer records.",
  tags: ["Cashless"],
  scope: "checkins.write",
  bucket: "write",
  extension: true,
  request: { params: p.WristbandCodeParam, body: body(q.ReviewRequest) },
  responses: {
    200: json(r.Wristband, "The kept wristband."),
    404: errorResponse("wristband_not_found."),
    409: conflict("wristband_not_in_review, idempotency_key_in_use"),
    422: replayed,
  },
});
