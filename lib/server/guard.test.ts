import { describe, expect, it } from "vitest";
import { assertSameOrigin, errorResponse, HttpError } from "./guard";

const post = (headers: Record<string, string>) =>
  new Request("http://console.test/api/x", { method: "POST", headers });

describe("same-origin check for state changes", () => {
  it("accepts this host's origin and requests without an Origin (non-browser clients)", () => {
    expect(() =>
      assertSameOrigin(post({ host: "console.test", origin: "http://console.test" })),
    ).not.toThrow();
    expect(() => assertSameOrigin(post({ host: "console.test" }))).not.toThrow();
  });

  it("refuses a foreign, malformed or null Origin with 403 foreign_origin", () => {
    for (const origin of ["http://evil.test", "http://console.test.evil.test", "null", "::"]) {
      let error: unknown;
      try {
        assertSameOrigin(post({ host: "console.test", origin }));
      } catch (err) {
        error = err;
      }
      expect(error, origin).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(403);
      expect((error as HttpError).code).toBe("foreign_origin");
    }
  });
});

describe("error envelope", () => {
  it("carries code, message and the upstream request id", async () => {
    const res = errorResponse(new HttpError(409, "bonus_mismatch", "The bonus changed.", "req_abc"));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: { code: "bonus_mismatch", message: "The bonus changed.", request_id: "req_abc" },
    });
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
