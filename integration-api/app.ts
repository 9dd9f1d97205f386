import { randomBytes } from "node:crypto";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError, createErrorHandler, type ErrorLogger } from "./errors";
import type { AppEnv, Services } from "./http/context";
import { validationHook } from "./http/validation";
import { registerAdminHandlers } from "./routes/admin-handlers";
import { registerReadHandlers } from "./routes/read-handlers";
import { renderReference } from "./routes/reference-page";
import { registerWriteHandlers } from "./routes/write-handlers";
import { registerLateSaleRoute } from "./simulator/late-sale";
import { registerClockControls, registerSandboxControls, type Sandbox } from "./simulator/sandbox-controls";
import type { TerminalSimulator } from "./simulator/terminal-simulator";

const MAX_BODY_BYTES = 2 * 1024 * 1024;

export const API_VERSION = "1.0.0";

export interface AppOptions {
  log?: ErrorLogger;
  /**
   * Sandbox: the simulator that runs; its admin routes (`POST /admin/simulator/late-sale`, the
   * terminal controls and the refund spike) exist.
   */
  simulator?: TerminalSimulator;
  /** Sandbox: its clock and the console following it; the clock controls (`/admin/sandbox/*`) exist. */
  sandbox?: Sandbox;
}

const defaultLog: ErrorLogger = (err, requestId) => {
  console.error(`[integration-api] ${requestId} unhandled error`, err);
};

/** The Integration API as a Hono app: /v1 (the spec), /admin (key administration). */
export function createApp(services: Services, options: AppOptions = {}) {
  const onError = createErrorHandler(options.log ?? defaultLog);
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use("*", async (c, next) => {
    const requestId = `req_${randomBytes(12).toString("hex")}`;
    c.set("requestId", requestId);
    c.set("services", services);
    // Set before the handler: every answer (errors included) is built with them. Set afterwards,
    // they would make the adapter rebuild each finished response (a tenth of a lookup's CPU).
    c.header("X-Request-Id", requestId);
    c.header("Cache-Control", "no-store");
    await next();
  });
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError("request_too_large", "The request body is larger than 2 MiB.");
    },
  });
  // Reads carry no body; checking one would make the adapter build a full Request for every read.
  app.use("*", (c, next) =>
    c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitBody(c, next),
  );

  const v1 = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  v1.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer eak_<live|test>_<secret>`",
  });
  registerReadHandlers(v1);
  registerWriteHandlers(v1);
  const document = () =>
    v1.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Event Access and Cashless Integration API",
        version: API_VERSION,
        description:
          "One deployment serves one event; the API key determines it. Amounts are integer cents, times ISO 8601 UTC. See /v1/reference for the rules.",
      },
      servers: [{ url: "/v1" }],
    });
  v1.get("/openapi.json", (c) => c.json(document()));
  v1.get("/reference", (c) =>
    c.html(renderReference(document() as unknown as Parameters<typeof renderReference>[0])),
  );

  const admin = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  registerAdminHandlers(admin);
  if (options.sandbox) registerClockControls(admin, options.sandbox);
  if (options.simulator) {
    registerLateSaleRoute(admin);
    registerSandboxControls(admin, options.simulator);
  }

  app.route("/v1", v1);
  app.route("/admin", admin);
  app.get("/", (c) => c.redirect("/v1/reference"));

  const routeTable = knownRoutes(app);
  app.notFound((c) => {
    const path = c.req.path;
    const methods = routeTable.filter((r) => r.pattern.test(path)).map((r) => r.method);
    if (methods.length > 0) {
      c.header("Allow", [...new Set(methods)].join(", "));
      throw new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${path}.`);
    }
    throw new ApiError("route_not_found", `No route ${c.req.method} ${path}.`);
  });
  app.onError(onError);
  v1.onError(onError);
  admin.onError(onError);
  return app;
}

/** Method and path pattern of every concrete route, to tell 405 from 404. */
function knownRoutes(app: Hono<AppEnv>) {
  return app.routes
    .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
    .map((r) => ({
      method: r.method,
      pattern: new RegExp(
        `^${r.path
          .split("/")
          .map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("/")}$`,
      ),
    }));
}
