import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConsoleError } from "@/lib/shared/api/errors";
import { clientAddress, isLoopbackOrIpHost } from "./client-address";
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

const PUBLIC_URL = "http://console.test";

describe("same-origin check for state changes", () => {
  it("accepts this host's Origin, or no Origin with Sec-Fetch-Site: same-origin", () => {
    expect(
      refusal(() => assertSameOrigin(post({ host: "console.test", origin: PUBLIC_URL }), 0, PUBLIC_URL)),
    ).toBeNull();
    expect(
      refusal(() =>
        assertSameOrigin(post({ host: "console.test", "sec-fetch-site": "same-origin" }), 0, PUBLIC_URL),
      ),
    ).toBeNull();
  });

  it("refuses a request without Origin (403 origin_required), even a same-site one", () => {
    const cases: Record<string, string>[] = [
      { host: "console.test" },
      { host: "console.test", "sec-fetch-site": "same-site" },
    ];
    for (const headers of cases) {
      expect(refusal(() => assertSameOrigin(post(headers), 0, PUBLIC_URL))).toMatchObject({
        status: 403,
        code: "origin_required",
      });
    }
  });

  it("refuses a foreign, malformed or null Origin with 403 foreign_origin", () => {
    for (const origin of [
      "http://evil.test",
      "http://console.test.evil.test",
      "null",
      "::",
      "https://console.test",
    ]) {
      const error = refusal(() => assertSameOrigin(post({ host: "console.test", origin }), 0, PUBLIC_URL));
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
    expect(refusal(() => assertSameOrigin(spoofed, 0, PUBLIC_URL))).toMatchObject({ code: "foreign_origin" });
    // Behind one trusted proxy the forwarded host and protocol are the browser's.
    const proxied = post({
      host: "10.0.0.2:3000",
      origin: "https://console.example",
      "x-forwarded-host": "console.example",
      "x-forwarded-proto": "https",
    });
    expect(refusal(() => assertSameOrigin(proxied, 1, "https://console.example"))).toBeNull();
    expect(refusal(() => assertSameOrigin(proxied, 0, "https://console.example"))).toMatchObject({
      code: "unknown_host",
    });
    expect(refusal(() => assertSameOrigin(proxied, 0))).toMatchObject({ code: "foreign_origin" });
    const downgraded = post({
      host: "10.0.0.2:3000",
      origin: "http://console.example",
      "x-forwarded-host": "console.example",
      "x-forwarded-proto": "https",
    });
    expect(refusal(() => assertSameOrigin(downgraded, 1, "https://console.example"))).toMatchObject({
      code: "foreign_origin",
    });
  });
});

describe("Host check (DNS rebinding)", () => {
  it("without PUBLIC_URL accepts localhost and IP literals, with their ports", () => {
    for (const host of [
      "localhost",
      "localhost:3000",
      "LOCALHOST:3640",
      "127.0.0.1:3000",
      "192.168.1.20:3000",
      "[::1]:3000",
      "[::1]",
      "10.0.0.5",
    ]) {
      const origin = `http://${host.toLowerCase()}`;
      expect(
        refusal(() => assertSameOrigin(post({ host, origin }))),
        host,
      ).toBeNull();
    }
    expect(isLoopbackOrIpHost("[fe80::1]:443")).toBe(true);
  });

  it("without PUBLIC_URL refuses any domain name with 403 unknown_host, even with a matching Origin", () => {
    for (const host of [
      "evil",
      "evil.example:3000",
      "127.0.0.1.evil.example",
      "localhost.evil.example",
      "console.test",
      "1.2.3.4.nip.io",
      "0x7f.0.0.1",
      "127.1",
      "[not-ip]:3000",
      "localhost:99999999",
      "",
    ]) {
      const error = refusal(() => assertSameOrigin(post({ host, origin: `http://${host}` })));
      expect(error, host).toMatchObject({ status: 403, code: "unknown_host" });
    }
  });

  it("with PUBLIC_URL accepts only its host (and its scheme in Origin)", () => {
    const at = "https://console.example";
    expect(refusal(() => assertSameOrigin(post({ host: "console.example", origin: at }), 0, at))).toBeNull();
    expect(refusal(() => assertSameOrigin(post({ host: "Console.Example", origin: at }), 0, at))).toBeNull();
    for (const host of ["evil.example", "localhost:3000", "127.0.0.1:3000", "console.example:8443"])
      expect(
        refusal(() => assertSameOrigin(post({ host, origin: `https://${host}` }), 0, at)),
        host,
      ).toMatchObject({ code: "unknown_host" });
    // A rebinding host behind a trusted proxy is refused by its forwarded name.
    expect(
      refusal(() =>
        assertSameOrigin(
          post({ host: "10.0.0.2:3000", "x-forwarded-host": "evil.example", origin: "https://evil.example" }),
          1,
          at,
        ),
      ),
    ).toMatchObject({ code: "unknown_host" });
  });

  it("is checked before the Origin: a rebinding page without Origin is refused too", () => {
    expect(
      refusal(() => assertSameOrigin(post({ host: "evil.example", "sec-fetch-site": "same-origin" }))),
    ).toMatchObject({ code: "unknown_host" });
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
