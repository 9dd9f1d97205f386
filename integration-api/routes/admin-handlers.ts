import type { OpenAPIHono } from "@hono/zod-openapi";
import { ApiKeyList, ApiKeyView, CreatedKey, LedgerReport } from "../../lib/contract/admin";
import type { AppEnv } from "../http/context";
import { ledgerDifferences } from "../store/ledger-store";
import * as routes from "./admin-routes";

export function registerAdminHandlers(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.createKeyRoute, async (c) => {
    const created = await c.get("services").keys.create(c.req.valid("json"));
    return c.json(CreatedKey.parse(created), 201);
  });

  app.openapi(routes.listKeysRoute, async (c) => {
    const data = await c.get("services").keys.list();
    return c.json(ApiKeyList.parse({ object: "list", data }), 200);
  });

  app.openapi(routes.activateKeyRoute, async (c) => {
    const key = await c.get("services").keys.activate(c.req.valid("param").id);
    return c.json(ApiKeyView.parse(key), 200);
  });

  app.openapi(routes.revokeKeyRoute, async (c) => {
    const key = await c.get("services").keys.revoke(c.req.valid("param").id);
    return c.json(ApiKeyView.parse(key), 200);
  });

  app.openapi(routes.ledgerRoute, async (c) => {
    const { checked, differences } = await ledgerDifferences(c.get("services").db);
    return c.json(
      LedgerReport.parse({ object: "ledger_report", checked, ok: differences.length === 0, differences }),
      200,
    );
  });
}
