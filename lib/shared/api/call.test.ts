import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { call, urlOf } from "./call";
import { endpoint } from "./endpoints/define";
import { ConsoleError } from "./errors";

const ticket = endpoint({
  name: "test.ticket",
  summary: "A ticket.",
  method: "GET",
  path: "/api/tickets/{code}/things/{id}",
  permission: "tickets.view",
  params: z.object({ code: z.string(), id: z.string() }),
  query: z.object({ status: z.string().optional(), page: z.string().optional() }),
  answer: z.object({ code: z.string() }),
  refresh: "lookup",
});
const write = endpoint({
  name: "test.write",
  summary: "A write.",
  method: "PUT",
  path: "/api/things/{id}",
  permission: "terminals.manage",
  params: z.object({ id: z.string() }),
  body: z.object({ n: z.number() }),
  answer: z.object({ ok: z.boolean() }),
  refresh: "once",
});

function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => Response.json(body, { status, headers }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}
afterEach(() => vi.unstubAllGlobals());

describe("urlOf", () => {
  it("fills each {param} encoded, appends the set query values, leaves out empty ones", () => {
    expect(urlOf(ticket, { params: { code: "T-1/2 ?#", id: "a%b" }, query: { status: "", page: "2" } })).toBe(
      "/api/tickets/T-1%2F2%20%3F%23/things/a%25b?page=2",
    );
    expect(urlOf(ticket, { params: { code: "x", id: "y" }, query: { status: "a&b=c" } })).toBe(
      "/api/tickets/x/things/y?status=a%26b%3Dc",
    );
    expect(urlOf(ticket, { params: { code: "x", id: "y" } })).toBe("/api/tickets/x/things/y");
  });

  it("refuses to build a URL without a path parameter", () => {
    expect(() => urlOf(ticket, { params: { code: "x" } as never })).toThrow(/id is missing/);
  });
});

describe("call", () => {
  it("GETs the declared URL and answers the parsed answer (an undeclared field dropped)", async () => {
    const fetch = answering(200, { code: "T-1", secret: "no" });
    await expect(call(ticket, { params: { code: "T 1", id: "2" } })).resolves.toEqual({ code: "T-1" });
    expect(fetch.mock.calls[0]![0]).toBe("/api/tickets/T%201/things/2");
    expect(fetch.mock.calls[0]![1]?.method ?? "GET").toBe("GET");
  });

  it("sends a write's body as JSON with the declared method", async () => {
    const fetch = answering(200, { ok: true });
    await call(write, { params: { id: "7" }, body: { n: 3 } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe("/api/things/7");
    expect(init?.method).toBe("PUT");
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
    expect(JSON.parse(String(init?.body))).toEqual({ n: 3 });
  });

  it("turns the error envelope back into its ConsoleError (code, status, param, retry-after)", async () => {
    answering(400, { error: { code: "invalid_parameter", message: "n: too big", param: "n" } });
    const error = await call(write, { params: { id: "7" }, body: { n: 3 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConsoleError);
    expect(error).toMatchObject({
      code: "invalid_parameter",
      status: 400,
      param: "n",
      message: "n: too big",
    });
    answering(429, { error: { code: "lookup_budget_exhausted", message: "Wait." } }, { "retry-after": "12" });
    await expect(call(ticket, { params: { code: "x", id: "y" } })).rejects.toMatchObject({
      code: "lookup_budget_exhausted",
      status: 429,
      retryAfter: 12,
    });
  });

  it("an answer of another shape, or no answer, is `unavailable`", async () => {
    answering(200, { code: 5 });
    await expect(call(ticket, { params: { code: "x", id: "y" } })).rejects.toMatchObject({
      code: "unavailable",
    });
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("offline")));
    await expect(call(ticket, { params: { code: "x", id: "y" } })).rejects.toMatchObject({
      code: "unavailable",
      status: 0,
    });
  });
});
