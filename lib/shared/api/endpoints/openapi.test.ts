import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { allEndpoints } from ".";
import { openApiDocument } from "./openapi";

describe("the OpenAPI document of the console's own API", () => {
  it("is a valid OpenAPI 3.1 document that lists every declared endpoint once, with its permission", async () => {
    const document = openApiDocument(allEndpoints);
    // validate() dereferences in place: hand it a copy.
    await SwaggerParser.validate(structuredClone(document) as never);
    const listed = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op["x-permission"]}`),
    );
    expect(listed.sort()).toEqual(allEndpoints.map((e) => `${e.method} ${e.path} ${e.permission}`).sort());
  });

  it("describes bodies as sent, parameters as declared, and downloads by their type", () => {
    const { paths } = openApiDocument(allEndpoints);
    const checkIn = paths["/api/tickets/{code}/check-in"]!.post!;
    expect(checkIn.parameters).toEqual([
      expect.objectContaining({ name: "code", in: "path", required: true }),
    ]);
    const body = (
      checkIn as { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }
    ).requestBody!.content["application/json"]!.schema;
    expect(body.required).toEqual(expect.arrayContaining(["nfc", "idempotency_key"]));
    expect(paths["/api/tickets"]!.get!.parameters.map((p) => [p.name, p.required])).toEqual([
      ["status", false],
      ["updated_since", false],
      ["starting_after", false],
    ]);
    expect(
      Object.keys(paths["/api/reconciliation/signoffs/{id}/pdf"]!.get!.responses["200"]!.content),
    ).toEqual(["application/pdf"]);
    expect(Object.keys(paths["/api/desk/topups"]!.post!.responses)).toEqual(["201", "default"]);
  });
});
