import * as p from "../../lib/contract/params";
import * as r from "../../lib/contract/resources";
import { errorResponse, json, v1Route } from "./route-kit";

/** Definitions of every read endpoint of v1: paths, parameters, responses, scope and bucket. */

const notFound = (what: string) => errorResponse(`${what}_not_found (or out of the key's scope).`);

export const pingRoute = v1Route({
  method: "get",
  path: "/ping",
  summary: "Verify a key",
  description: "Answers for any usable key with the key's scopes, restrictions and rate limits.",
  tags: ["Event"],
  scope: null,
  bucket: "read",
  request: { query: p.NoQuery },
  responses: { 200: json(r.Ping, "The key works.") },
});

export const eventRoute = v1Route({
  method: "get",
  path: "/event",
  summary: "Event configuration (currency, time zone)",
  tags: ["Event"],
  scope: "event.read",
  bucket: "read",
  request: { query: p.NoQuery },
  responses: { 200: json(r.Event, "The event.") },
});

export const daysRoute = v1Route({
  method: "get",
  path: "/days",
  summary: "Event days",
  tags: ["Event"],
  scope: "event.read",
  bucket: "read",
  request: { query: p.NoQuery },
  responses: { 200: json(r.PlainList(r.Day), "Days in the key's scope, by start.") },
});

export const zonesRoute = v1Route({
  method: "get",
  path: "/zones",
  summary: "Zones",
  tags: ["Event"],
  scope: "event.read",
  bucket: "read",
  request: { query: p.NoQuery },
  responses: { 200: json(r.PlainList(r.Zone), "Zones.") },
});

export const ticketTypesRoute = v1Route({
  method: "get",
  path: "/ticket-types",
  summary: "Ticket types",
  tags: ["Event"],
  scope: "event.read",
  bucket: "read",
  request: { query: p.NoQuery },
  responses: { 200: json(r.PlainList(r.TicketType), "Ticket types in the key's scope.") },
});

export const listTicketsRoute = v1Route({
  method: "get",
  path: "/tickets",
  summary: "List tickets",
  description:
    "Ordered by id (arrival). `updated_since` returns everything created or modified from that instant.",
  tags: ["Tickets"],
  scope: "tickets.read",
  bucket: "read",
  request: { query: p.TicketListQuery },
  responses: { 200: json(r.ListEnvelope(r.Ticket), "A page of tickets.") },
});

export const getTicketRoute = v1Route({
  method: "get",
  path: "/tickets/{code}",
  summary: "Retrieve a ticket by code",
  tags: ["Tickets"],
  scope: "tickets.read",
  bucket: "read",
  request: { params: p.TicketCodeParam, query: p.NoQuery },
  responses: { 200: json(r.Ticket, "The ticket."), 404: notFound("ticket") },
});

export const listWristbandsRoute = v1Route({
  method: "get",
  path: "/wristbands",
  summary: "List wristbands [ext]",
  description: "Extension: lets a client keep a pending_review queue without probing every wristband.",
  tags: ["Cashless"],
  scope: "cashless.read",
  bucket: "read",
  extension: true,
  request: { query: p.WristbandListQuery },
  responses: { 200: json(r.ListEnvelope(r.Wristband), "A page of wristbands.") },
});

export const getWristbandRoute = v1Route({
  method: "get",
  path: "/wristbands/{code}",
  summary: "Retrieve a wristband by NFC or UHF code",
  tags: ["Cashless"],
  scope: "cashless.read",
  bucket: "read",
  request: { params: p.WristbandCodeParam, query: p.NoQuery },
  responses: { 200: json(r.Wristband, "The wristband."), 404: notFound("wristband") },
});

export const wristbandTransactionsRoute = v1Route({
  method: "get",
  path: "/wristbands/{code}/transactions",
  summary: "Sales paid against a wristband",
  tags: ["Cashless"],
  scope: "cashless.read",
  bucket: "read",
  request: { params: p.WristbandCodeParam, query: p.SalesListQuery },
  responses: { 200: json(r.ListEnvelope(r.Transaction), "A page of sales."), 404: notFound("wristband") },
});

export const listTransactionsRoute = v1Route({
  method: "get",
  path: "/transactions",
  summary: "List sales",
  description:
    "Every sale of the event, by arrival. `since` filters by `occurred_at`: overlap it and dedupe by id.",
  tags: ["Cashless"],
  scope: "cashless.read",
  bucket: "read",
  request: { query: p.SalesListQuery },
  responses: { 200: json(r.ListEnvelope(r.Transaction), "A page of sales.") },
});

export const listTopupsRoute = v1Route({
  method: "get",
  path: "/topups",
  summary: "List top-ups and withdrawals",
  tags: ["Cashless"],
  scope: "cashless.read",
  bucket: "read",
  request: { query: p.TopupListQuery },
  responses: { 200: json(r.ListEnvelope(r.Topup), "A page of balance movements.") },
});

export const quoteRoute = v1Route({
  method: "get",
  path: "/topup-bonuses/quote",
  summary: "Quote the bonus for top-up amounts",
  description:
    "Show before charging, then send `bonus_amount` and `bonus_rule` with the top-up. With `code` the per-person cap applies.",
  tags: ["Cashless"],
  scope: "cashless.read",
  bucket: "read",
  request: { query: p.QuoteQuery },
  responses: { 200: json(r.TopupBonusQuote, "One line per amount, in the requested order.") },
});

export const listCheckinsRoute = v1Route({
  method: "get",
  path: "/checkins",
  summary: "Door scan log",
  tags: ["Access"],
  scope: "checkins.read",
  bucket: "read",
  request: { query: p.CheckinListQuery },
  responses: { 200: json(r.ListEnvelope(r.Checkin), "A page of scans.") },
});

export const salesSummaryRoute = v1Route({
  method: "get",
  path: "/reports/sales-summary",
  summary: "Aggregate sales summary (checksum for reconciliation)",
  description: "Completed records only, grouped by `day_id`; equals the sums of the paginated lists.",
  tags: ["Reports"],
  scope: "reports.read",
  bucket: "read",
  request: { query: p.SalesSummaryQuery },
  responses: { 200: json(r.SalesSummary, "The summary.") },
});

export const readRoutes = [
  pingRoute,
  eventRoute,
  daysRoute,
  zonesRoute,
  ticketTypesRoute,
  listTicketsRoute,
  getTicketRoute,
  listWristbandsRoute,
  getWristbandRoute,
  wristbandTransactionsRoute,
  listTransactionsRoute,
  listTopupsRoute,
  quoteRoute,
  listCheckinsRoute,
  salesSummaryRoute,
] as const;
