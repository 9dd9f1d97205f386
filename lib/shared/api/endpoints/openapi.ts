import { z } from "zod";
import { ErrorEnvelope } from "../errors";
import type { EndpointSpec } from "./define";

/**
 * The OpenAPI 3.1 document of the console's own API, made from the endpoint declarations (zod 4's
 * JSON Schema, the 2020-12 dialect OpenAPI 3.1 uses): what a route accepts and answers can never
 * drift from what it says here.
 */

type JsonSchema = Record<string, unknown>;

/** A schema as JSON Schema: what is sent (`input`) or answered (`output`); a transform's far side is open. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** One parameter per property of a params or query object. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query") {
  if (!schema) return [];
  const object = jsonSchema(schema, "input") as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (object.required ?? []).includes(name),
    schema: property,
  }));
}

const FILE_TYPES = {
  csv: { "text/csv": { schema: { type: "string" } } },
  pdf: { "application/pdf": { schema: { type: "string", contentEncoding: "binary" } } },
  html: { "text/html": { schema: { type: "string" } } },
  "event-stream": { "text/event-stream": { schema: { type: "string" } } },
} as const;

function operation(e: EndpointSpec) {
  const content =
    typeof e.answer === "string"
      ? FILE_TYPES[e.answer]
      : { "application/json": { schema: jsonSchema(e.answer, "output") } };
  return {
    operationId: e.name,
    summary: e.summary,
    tags: [e.name.split(".")[0]!],
    // Who may call it: a permission of the console's one table, "public" or "signed-in".
    "x-permission": e.permission,
    parameters: [...parameters(e.params, "path"), ...parameters(e.query, "query")],
    ...(e.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchema(e.body, "input") } },
          },
        }
      : {}),
    responses: {
      [String(e.status ?? 200)]: { description: "Success.", content },
      default: {
        description: "The console's one error envelope (its status from the error's code).",
        content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
      },
    },
  };
}

export function openApiDocument(endpoints: readonly EndpointSpec[]) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const e of endpoints) {
    paths[e.path] ??= {};
    paths[e.path]![e.method.toLowerCase()] = operation(e);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Event operations console",
      version: "1",
      description:
        "The dashboard's own API (its pages' route handlers). Every call needs the session cookie of a signed-in user (but `public` ones); a state change needs the console's own Origin and a JSON body.",
    },
    paths,
    components: { schemas: { ErrorEnvelope: jsonSchema(ErrorEnvelope, "output") } },
  };
}
