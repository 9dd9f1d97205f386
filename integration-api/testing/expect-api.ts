import { expect } from "vitest";
import { ErrorBody } from "../../lib/contract/errors";
import type { TestResponse } from "./test-api";

/** Headers every answer of the service carries, errors included. */
export function expectCommonHeaders(res: { headers: Headers }) {
  const requestId = res.headers.get("x-request-id");
  expect(requestId).toMatch(/^req_[0-9a-f]+$/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("access-control-allow-origin")).toBeNull();
  return requestId as string;
}

/**
 * Asserts the error envelope: status, type, code, param (undefined: must be absent; omit the
 * argument to leave it unchecked) and request_id equal to the X-Request-Id header.
 */
export function expectError(
  res: TestResponse,
  status: number,
  type: ErrorBody["error"]["type"],
  code: string,
  ...param: [string | undefined] | []
) {
  const context = `${res.status} ${res.text}`;
  expect(res.status, context).toBe(status);
  const body = ErrorBody.parse(res.body);
  expect(body.error.code, context).toBe(code);
  expect(body.error.type, context).toBe(type);
  expect(body.error.message.length).toBeGreaterThan(0);
  if (param.length === 1) expect(body.error.param, context).toBe(param[0]);
  const requestId = expectCommonHeaders(res);
  expect(body.error.request_id).toBe(requestId);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return body.error;
}

/** Asserts a 200 with the common headers and returns the body parsed by `schema`. */
export function expectOk<T>(res: TestResponse, schema: { parse: (v: unknown) => T }, status = 200): T {
  expect(res.status, res.text).toBe(status);
  expectCommonHeaders(res);
  return schema.parse(res.body);
}

/** Every id of a list is greater than the one before it. */
export function expectAscendingIds(items: { id: string }[]) {
  for (let i = 1; i < items.length; i++) expect(items[i].id > items[i - 1].id).toBe(true);
}
