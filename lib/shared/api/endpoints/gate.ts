import { CodeSegment, SalesPageQuery, SearchQuery, TicketListQuery } from "../params";
import { SearchResult } from "../search";
import {
  CheckInBody,
  KeyOnlyBody,
  SalesPage,
  TicketAnswer,
  TicketListView,
  TicketView,
  WristbandView,
} from "../staff";
import { endpoint } from "./define";

/** The gate's tools: tickets, wristbands and the header's search, read live from the upstream. */
export const gate = {
  search: endpoint({
    name: "gate.search",
    summary:
      "The header's search box: a ticket, NFC or UHF code (looked up live), or an attendee's name (mirror).",
    method: "GET",
    path: "/api/staff/search",
    permission: "tickets.view",
    query: SearchQuery,
    answer: SearchResult,
    refresh: "lookup",
  }),
  tickets: endpoint({
    name: "gate.tickets",
    summary: 'One page of tickets, live: a status filter and "changed since".',
    method: "GET",
    path: "/api/tickets",
    permission: "tickets.view",
    query: TicketListQuery,
    answer: TicketListView,
    refresh: "lookup",
  }),
  ticket: endpoint({
    name: "gate.ticket",
    summary: "One ticket, live.",
    method: "GET",
    path: "/api/tickets/{code}",
    permission: "tickets.view",
    params: CodeSegment,
    answer: TicketView,
    refresh: "lookup",
  }),
  checkIn: endpoint({
    name: "gate.check_in",
    summary:
      "Check a ticket in, linking a wristband (entered or scanned); on a wrong day only with an override.",
    method: "POST",
    path: "/api/tickets/{code}/check-in",
    permission: "tickets.checkin",
    params: CodeSegment,
    body: CheckInBody,
    answer: TicketAnswer,
    refresh: "once",
  }),
  cancel: endpoint({
    name: "gate.cancel",
    summary: "Cancel a ticket (manager; the screen asks for a confirmation first).",
    method: "POST",
    path: "/api/tickets/{code}/cancel",
    permission: "tickets.cancel",
    params: CodeSegment,
    body: KeyOnlyBody,
    answer: TicketAnswer,
    refresh: "once",
  }),
  wristband: endpoint({
    name: "gate.wristband",
    summary:
      "One wristband, live, with its top-ups (from the mirror: the API has no per-wristband top-up list).",
    method: "GET",
    path: "/api/wristbands/{code}",
    permission: "wristbands.view",
    params: CodeSegment,
    answer: WristbandView,
    refresh: "lookup",
  }),
  wristbandSales: endpoint({
    name: "gate.wristband_sales",
    summary: "One page (25) of a wristband's sales, live, with items and taxes.",
    method: "GET",
    path: "/api/wristbands/{code}/sales",
    permission: "wristbands.view",
    params: CodeSegment,
    query: SalesPageQuery,
    answer: SalesPage,
    refresh: "lookup",
  }),
};
