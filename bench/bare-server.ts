import { readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

/**
 * The baseline of bench/api-read: the same framework and HTTP adapter as the Integration API, no
 * auth, no store — it answers fixed JSON bodies of the same size as the real responses.
 */
const bodies = JSON.parse(readFileSync(process.argv[2], "utf8")) as Record<string, string>;
const app = new Hono();
for (const [name, body] of Object.entries(bodies)) {
  app.get(`/fixed/${name}`, (c) => c.body(body, 200, { "content-type": "application/json" }));
}
serve({ fetch: app.fetch, port: Number(process.argv[3]), hostname: "127.0.0.1" }, (info) => {
  console.log(`bare server on ${info.port}`);
});
