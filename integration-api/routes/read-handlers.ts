import type { OpenAPIHono } from "@hono/zod-openapi";
import * as r from "../../lib/contract/resources";
import type { AppEnv } from "../http/context";
import * as routes from "./read-routes";

/** Thin handlers: take the validated input and the key's scope, ask the service, answer parsed output. */
export function registerReadHandlers(app: OpenAPIHono<AppEnv>) {
  const TicketList = r.ListEnvelope(r.Ticket);
  const WristbandList = r.ListEnvelope(r.Wristband);
  const TransactionList = r.ListEnvelope(r.Transaction);
  const TopupList = r.ListEnvelope(r.Topup);
  const CheckinList = r.ListEnvelope(r.Checkin);

  app.openapi(routes.pingRoute, (c) => {
    const { catalog, environment } = c.get("services");
    const { row } = c.get("apiKey");
    return c.json(
      r.Ping.parse({
        object: "ping",
        ok: true,
        environment,
        event: { id: catalog.event.id, name: catalog.event.name },
        key: {
          id: row.id,
          name: row.name,
          scopes: row.scopes,
          restrictions: { ticket_type_ids: row.restricted_ticket_type_ids, day_ids: row.restricted_day_ids },
          rate_limits: row.rate_limits,
        },
      }),
      200,
    );
  });

  app.openapi(routes.eventRoute, (c) => {
    const { catalog, environment } = c.get("services");
    return c.json(r.Event.parse(catalog.toEvent(environment)), 200);
  });

  app.openapi(routes.daysRoute, (c) => {
    const data = c.get("services").catalog.toDays(c.get("apiKey").visibility);
    return c.json(r.PlainList(r.Day).parse({ object: "list", data }), 200);
  });

  app.openapi(routes.zonesRoute, (c) => {
    const data = c.get("services").catalog.toZones();
    return c.json(r.PlainList(r.Zone).parse({ object: "list", data }), 200);
  });

  app.openapi(routes.ticketTypesRoute, (c) => {
    const data = c.get("services").catalog.toTicketTypes(c.get("apiKey").visibility);
    return c.json(r.PlainList(r.TicketType).parse({ object: "list", data }), 200);
  });

  app.openapi(routes.listTicketsRoute, async (c) => {
    const page = await c.get("services").reads.listTickets(c.get("apiKey").visibility, c.req.valid("query"));
    return c.json(TicketList.parse(page), 200);
  });

  app.openapi(routes.getTicketRoute, async (c) => {
    const ticket = await c
      .get("services")
      .reads.getTicket(c.get("apiKey").visibility, c.req.valid("param").code);
    return c.json(r.Ticket.parse(ticket), 200);
  });

  app.openapi(routes.listWristbandsRoute, async (c) => {
    const page = await c
      .get("services")
      .reads.listWristbands(c.get("apiKey").visibility, c.req.valid("query"));
    return c.json(WristbandList.parse(page), 200);
  });

  app.openapi(routes.getWristbandRoute, async (c) => {
    const code = c.req.valid("param").code;
    const wristband = await c.get("services").reads.getWristband(c.get("apiKey").visibility, code);
    return c.json(r.Wristband.parse(wristband), 200);
  });

  app.openapi(routes.wristbandTransactionsRoute, async (c) => {
    const { visibility } = c.get("apiKey");
    const page = await c
      .get("services")
      .reads.listSales(visibility, c.req.valid("query"), c.req.valid("param").code);
    return c.json(TransactionList.parse(page), 200);
  });

  app.openapi(routes.listTransactionsRoute, async (c) => {
    const page = await c.get("services").reads.listSales(c.get("apiKey").visibility, c.req.valid("query"));
    return c.json(TransactionList.parse(page), 200);
  });

  app.openapi(routes.listTopupsRoute, async (c) => {
    const page = await c.get("services").reads.listTopups(c.get("apiKey").visibility, c.req.valid("query"));
    return c.json(TopupList.parse(page), 200);
  });

  app.openapi(routes.quoteRoute, async (c) => {
    const quote = await c.get("services").reads.quote(c.get("apiKey").visibility, c.req.valid("query"));
    return c.json(r.TopupBonusQuote.parse(quote), 200);
  });

  app.openapi(routes.listCheckinsRoute, async (c) => {
    const page = await c.get("services").reads.listCheckins(c.get("apiKey").visibility, c.req.valid("query"));
    return c.json(CheckinList.parse(page), 200);
  });

  app.openapi(routes.salesSummaryRoute, async (c) => {
    const summary = await c
      .get("services")
      .reads.salesSummary(c.get("apiKey").visibility, c.req.valid("query"));
    return c.json(r.SalesSummary.parse(summary), 200);
  });
}
