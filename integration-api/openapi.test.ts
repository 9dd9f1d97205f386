import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCodes } from "../lib/contract/errors";
import { expectCommonHeaders } from "./testing/expect-api";
import { createTestApi, type TestApi } from "./testing/test-api";

/** The machine-readable contract (GET /v1/openapi.json) and the reference page built from it. */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string; enum?: string[]; minimum?: number; maximum?: number; default?: unknown };
}
interface Operation {
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, string[]>[];
  "x-extension"?: boolean;
  "x-scope"?: string;
  "x-rate-limit-bucket"?: string;
}
interface Doc {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
}

let api: TestApi;
let doc: Doc;

beforeAll(async () => {
  api = await createTestApi({ scale: 0.01 });
  const res = await api.request<Doc>("/v1/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
});

afterAll(async () => {
  await api?.close();
});

const PAGINATION = ["limit", "starting_after"];

/** Every read path, its query parameters (required ones marked), path parameters and scope. */
const READ_PATHS: {
  path: string;
  query: string[];
  required?: string[];
  pathParams?: string[];
  scope: string;
}[] = [
  { path: "/ping", query: [], scope: "any" },
  { path: "/event", query: [], scope: "event.read" },
  { path: "/days", query: [], scope: "event.read" },
  { path: "/zones", query: [], scope: "event.read" },
  { path: "/ticket-types", query: [], scope: "event.read" },
  { path: "/tickets", query: [...PAGINATION, "status", "updated_since"], scope: "tickets.read" },
  { path: "/tickets/{code}", query: [], pathParams: ["code"], scope: "tickets.read" },
  { path: "/wristbands", query: [...PAGINATION, "status", "updated_since"], scope: "cashless.read" },
  { path: "/wristbands/{code}", query: [], pathParams: ["code"], scope: "cashless.read" },
  {
    path: "/wristbands/{code}/transactions",
    query: [...PAGINATION, "day_id", "since"],
    pathParams: ["code"],
    scope: "cashless.read",
  },
  { path: "/transactions", query: [...PAGINATION, "day_id", "since"], scope: "cashless.read" },
  { path: "/topups", query: [...PAGINATION, "day_id", "since", "direction"], scope: "cashless.read" },
  {
    path: "/topup-bonuses/quote",
    query: ["amounts", "code", "pending_rules"],
    required: ["amounts"],
    scope: "cashless.read",
  },
  { path: "/checkins", query: [...PAGINATION, "day_id", "since", "zone_id"], scope: "checkins.read" },
  { path: "/reports/sales-summary", query: ["day_id"], scope: "reports.read" },
];

describe("GET /v1/openapi.json", () => {
  it("is served without a key, with the common headers, and is a valid OpenAPI 3.1 document", async () => {
    const res = await api.request("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expectCommonHeaders(res);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers.map((s) => s.url)).toEqual(["/v1"]);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it("documents every read path with its parameters", () => {
    for (const { path, query, required = [], pathParams = [] } of READ_PATHS) {
      const op = doc.paths[path]?.get;
      expect(op, `GET ${path}`).toBeDefined();
      const params = op.parameters ?? [];
      const inQuery = params.filter((p) => p.in === "query");
      expect(inQuery.map((p) => p.name).sort(), path).toEqual([...query].sort());
      for (const p of inQuery)
        expect(Boolean(p.required), `${path} ${p.name}`).toBe(required.includes(p.name));
      const inPath = params.filter((p) => p.in === "path");
      expect(
        inPath.map((p) => p.name),
        path,
      ).toEqual(pathParams);
      for (const p of inPath) expect(p.required).toBe(true);
    }
  });

  it("documents the decided parameter rules", () => {
    const param = (path: string, name: string) =>
      doc.paths[path].get.parameters?.find((p) => p.name === name) as Parameter;
    expect(param("/tickets", "limit").schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 200,
      default: 50,
    });
    expect(param("/tickets", "status").schema?.enum?.sort()).toEqual(["active", "inactive", "used"]);
    expect(param("/wristbands", "status").schema?.enum?.sort()).toEqual([
      "active",
      "blocked",
      "lost",
      "pending_review",
      "released",
    ]);
    expect(param("/topups", "direction").schema?.enum?.sort()).toEqual(["topup", "withdraw"]);
  });

  it("documents the answers: 200 with its schema and the shared error envelope", () => {
    for (const { path } of READ_PATHS) {
      const op = doc.paths[path].get;
      for (const status of ["200", "400", "401", "403", "429", "500"]) {
        expect(op.responses[status], `${path} ${status}`).toBeDefined();
        expect(op.responses[status].content?.["application/json"]?.schema, `${path} ${status}`).toBeDefined();
      }
      expect(JSON.stringify(op.responses["401"])).toContain("#/components/schemas/Error");
    }
    for (const path of ["/tickets/{code}", "/wristbands/{code}", "/wristbands/{code}/transactions"]) {
      expect(doc.paths[path].get.responses["404"], path).toBeDefined();
    }
  });

  it("marks the scope, the rate-limit bucket and the bearer key of each read operation", () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    for (const { path, scope } of READ_PATHS) {
      const op = doc.paths[path].get;
      expect(op["x-scope"], path).toBe(scope);
      expect(op["x-rate-limit-bucket"], path).toBe("read");
      expect(op.security, path).toEqual([{ apiKey: [] }]);
    }
  });

  it("marks GET /wristbands x-extension: true, and no operation of the spec", () => {
    expect(doc.paths["/wristbands"].get["x-extension"]).toBe(true);
    const spec = READ_PATHS.map((p) => p.path).filter((p) => p !== "/wristbands");
    for (const path of spec) expect(doc.paths[path].get["x-extension"], path).toBeUndefined();
  });

  it("does not document the admin surface nor itself as a keyed operation", () => {
    for (const path of Object.keys(doc.paths)) expect(path.startsWith("/admin")).toBe(false);
    expect(doc.paths["/openapi.json"]).toBeUndefined();
  });
});

describe("GET /v1/reference", () => {
  it("is an HTML page, without a key, naming every path and every error code", async () => {
    const res = await api.request("/v1/reference");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expectCommonHeaders(res);
    expect(res.text).toMatch(/^<!doctype html>/i);
    for (const path of Object.keys(doc.paths)) expect(res.text, path).toContain(`/v1${path}`);
    for (const code of errorCodes) expect(res.text, code).toContain(`<code>${code}</code>`);
    expect(res.text).toContain("/v1/openapi.json");
    expect(res.text).toContain("[ext]");
  });

  it("/ redirects to the reference", async () => {
    const res = await api.request("/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/v1/reference");
  });
});
