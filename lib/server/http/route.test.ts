import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConsoleError } from "@/lib/shared/api/errors";
import { clientAddress } from "./client-address";
import { readBody } from "./input";
import { assertJsonBody, assertSameOrigin, errorResponse } from "./route";

const post = (headers: Record<string, string>) =>
  new Request("http://console.test/api/x", { method: "POST", headers });

function refusal(check: () => unknown): ConsoleError | null {
  try {
    check();
    return null;
  } catch (err) {
    return err as ConsoleError;
  }
}

describe("same-origin check for state changes", () => {
  it("accepts this host's Origin, or no Origin with Sec-Fetch-Site: same-origin", () => {
    expect(
      refusal(() => assertSameOrigin(post({ host: "console.test", origin: "http://console.test" }))),
    ).toBeNull();
    expect(
      refusal(() => assertSameOrigin(post({ host: "console.test", "sec-fetch-site": "same-origin" }))),
    ).toBeNull();
  });

  it("refuses a request without Origin (403 origin_required), even a same-site one", () => {
    const cases: Record<string, string>[] = [
      { host: "console.test" },
      { host: "console.test", "sec-fetch-site": "same-site" },
    ];
    for (const headers of cases) {
      expect(refusal(() => assertSameOrigin(post(headers)))).toMatchObject({
        status: 403,
        code: "origin_required",
      });
    }
  });

  it("refuses a foreign, malformed or null Origin with 403 foreign_origin", () => {
    for (const origin of ["http://evil.test", "http://console.test.evil.test", "null", "::"]) {
      const error = refusal(() => assertSameOrigin(post({ host: "console.test", origin })));
      expect(error, origin).toBeInstanceOf(ConsoleError);
      expect(error).toMatchObject({ status: 403, code: "foreign_origin" });
    }
  });

  it("believes X-Forwarded-Host/-Proto only behind a configured proxy", () => {
    // The bypass: a foreign Origin plus a matching forwarded host, no proxy configured.
    const spoofed = post({
      host: "console.test",
      origin: "http://evil.test",
      "x-forwarded-host": "evil.test",
    });
    expect(refusal(() => assertSameOrigin(spoofed, 0))).toMatchObject({ code: "foreign_origin" });
    // Behind one trusted proxy the forwarded host and protocol are the browser's.
    const proxied = post({
      host: "10.0.0.2:3000",
      origin: "https://console.example",
      "x-forwarded-host": "console.example",
      "x-forwarded-proto": "https",
    });
    expect(refusal(() => assertSameOrigin(proxied, 1))).toBeNull();
    expect(refusal(() => assertSameOrigin(proxied, 0))).toMatchObject({ code: "foreign_origin" });
    const downgraded = post({
      host: "10.0.0.2:3000",
      origin: "http://console.example",
      "x-forwarded-host": "console.example",
      "x-forwarded-proto": "https",
    });
    expect(refusal(() => assertSameOrigin(downgraded, 1))).toMatchObject({ code: "foreign_origin" });
  });
});

describe("client address", () => {
  it("ignores X-Forwarded-For without a trusted proxy; with N hops takes the address the outermost one saw", () => {
    const request = new Request("http://console.test/", {
      headers: { "x-forwarded-for": "6.6.6.6, 1.2.3.4, 10.0.0.1" },
    });
    expect(clientAddress(request, 0)).toBeNull();
    expect(clientAddress(request, 1)).toBe("10.0.0.1");
    expect(clientAddress(request, 2)).toBe("1.2.3.4");
    expect(clientAddress(request, 9)).toBe("6.6.6.6");
  });
});

describe("request bodies", () => {
  const Body = z.object({ a: z.number() });
  const withBody = (body: BodyInit, headers: Record<string, string>) =>
    new Request("http://console.test/api/x", {
      method: "POST",
      body,
      headers,
      duplex: "half",
    } as RequestInit);

  it("refuses bodies not declared as JSON with 415 (form, text, none)", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      expect(refusal(() => assertJsonBody(post({ "content-type": type })))).toMatchObject({ status: 415 });
      await expect(readBody(withBody('{"a":1}', { "content-type": type }), Body)).rejects.toMatchObject({
        status: 415,
        code: "unsupported_media_type",
      });
    }
    expect(
      refusal(() => assertJsonBody(post({ "content-type": "application/json; charset=utf-8" }))),
    ).toBeNull();
    await expect(readBody(withBody('{"a":1}', {}), Body)).rejects.toMatchObject({ status: 415 });
    expect(await readBody(withBody('{"a":1}', { "content-type": "application/json" }), Body)).toEqual({
      a: 1,
    });
  });

  it("answers 413 with the limit past a body's size, declared or streamed", async () => {
    const big = JSON.stringify({ a: 1, pad: "x".repeat(2000) });
    const declared = withBody(big, {
      "content-type": "application/json",
      "content-length": String(big.length),
    });
    await expect(readBody(declared, Body, { maxBytes: 1024, what: "The import" })).rejects.toMatchObject({
      status: 413,
      code: "payload_too_large",
      message: `The import is 2 KB; the limit is 1 KB.`,
    });
    // A streamed body without a length is counted as it arrives and cut at the limit.
    const chunks = [big.slice(0, 600), big.slice(600)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    await expect(
      readBody(withBody(stream, { "content-type": "application/json" }), Body, { maxBytes: 1024 }),
    ).rejects.toMatchObject({ status: 413, message: expect.stringContaining("the limit is 1 KB") });
  });
});

describe("error envelope", () => {
  it("carries code, message and the upstream request id", async () => {
    const res = errorResponse(
      new ConsoleError("bonus_mismatch", "The bonus changed.", { status: 409, requestId: "req_abc" }),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: { code: "bonus_mismatch", message: "The bonus changed.", request_id: "req_abc" },
    });
  });

  it("says when to retry a 429 in retry-after", () => {
    const res = errorResponse(new ConsoleError("lookup_budget_exhausted", "Wait.", { retryAfter: 12.2 }));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("13");
  });

  it("answers an unexpected error with a reference and no detail", async () => {
    const res = errorResponse(new Error("secret detail at /srv/app/lib/x.ts:12"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("secret detail");
    expect(text).not.toContain("x.ts");
    expect(JSON.parse(text).error.code).toBe("internal_error");
  });
});
