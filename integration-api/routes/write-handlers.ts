import type { OpenAPIHono } from "@hono/zod-openapi";
import * as q from "../../lib/contract/requests";
import * as r from "../../lib/contract/resources";
import type { AppEnv } from "../http/context";
import { executeOnce } from "../http/idempotency";
import { nowOrigin } from "../services/write-common";
import * as routes from "./write-routes";

/** Thin handlers: each write runs once, inside one transaction with its idempotency record. */
export function registerWriteHandlers(app: OpenAPIHono<AppEnv>) {
  const TicketList = r.ListEnvelope(r.Ticket);

  app.openapi(routes.createTicketsRoute, (c) => {
    const { visibility } = c.get("apiKey");
    const { tickets } = c.req.valid("json");
    return executeOnce(c, 201, async (tx) =>
      TicketList.parse(await c.get("services").writes.createTickets(tx, visibility, tickets)),
    ) as never;
  });

  app.openapi(routes.cancelTicketRoute, (c) => {
    const { visibility } = c.get("apiKey");
    const { code } = c.req.valid("param");
    return executeOnce(c, 200, async (tx) =>
      r.Ticket.parse(await c.get("services").writes.cancelTicket(tx, visibility, code)),
    ) as never;
  });

  app.openapi(routes.checkInRoute, (c) => {
    const { visibility } = c.get("apiKey");
    const { code } = c.req.valid("param");
    const body = c.req.valid("json");
    return executeOnce(c, 200, async (tx) =>
      r.Ticket.parse(await c.get("services").writes.checkIn(tx, visibility, code, body)),
    ) as never;
  });

  app.openapi(routes.accessCheckRoute, (c) => {
    const { visibility } = c.get("apiKey");
    const body = c.req.valid("json");
    return executeOnce(c, 200, async (tx) =>
      q.AccessCheck.parse(await c.get("services").writes.accessCheck(tx, visibility, body)),
    ) as never;
  });

  app.openapi(routes.createTopupRoute, (c) => {
    const { visibility } = c.get("apiKey");
    const body = c.req.valid("json");
    return executeOnce(c, 201, async (tx) => {
      const origin = { ...nowOrigin(c.get("services").clock()), deviceId: body.device_id ?? null };
      return r.Topup.parse(await c.get("services").writes.createTopup(tx, visibility, body, origin));
    }) as never;
  });

  app.openapi(routes.reviewRoute, (c) => {
    const { visibility } = c.get("apiKey");
    const { code } = c.req.valid("param");
    return executeOnce(c, 200, async (tx) =>
      r.Wristband.parse(await c.get("services").writes.review(tx, visibility, code)),
    ) as never;
  });
}
