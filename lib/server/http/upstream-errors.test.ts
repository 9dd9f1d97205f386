import { describe, expect, it } from "vitest";
import { UpstreamError } from "@/lib/server/upstream/client";
import { ConsoleError } from "@/lib/shared/api/errors";
import { isUpstreamError, plainWords, toConsoleError } from "./upstream-errors";

describe("upstream errors in plain words", () => {
  const err = (code: string, status = 409, param?: string) =>
    new UpstreamError({
      status,
      type: "conflict_error",
      code,
      message: `upstream says ${code}`,
      param,
      request_id: "req_1",
    });

  it("keeps the status and code, explains the code, and carries the request id", () => {
    const http = toConsoleError(err("insufficient_balance")) as ConsoleError;
    expect(http).toBeInstanceOf(ConsoleError);
    expect(http).toMatchObject({ status: 409, code: "insufficient_balance", requestId: "req_1" });
    expect(http.message).toContain("only the paid balance can be withdrawn");
  });

  it("falls back to the upstream message, naming the field", () => {
    expect(plainWords(err("something_new", 400, "amount"))).toBe(
      "upstream says something_new (field amount)",
    );
  });

  it("a 429 says when to come back, in words and in retryAfter", () => {
    const busy = new UpstreamError({
      status: 429,
      type: "rate_limit_error",
      code: "rate_limit_exceeded",
      message: "Slow down.",
      retryAfter: 41,
    });
    expect(toConsoleError(busy)).toMatchObject({
      status: 429,
      code: "rate_limit_exceeded",
      retryAfter: 41,
      message: "The cashless service is busy: try again in 41 s.",
    });
  });

  it("answers 502 when the upstream gave no answer at all", () => {
    const http = toConsoleError(err("network_error", 0)) as ConsoleError;
    expect(http.status).toBe(502);
    expect(http.message).toContain("cannot be reached");
  });

  it("recognises an UpstreamError by shape (bundles may hold two copies of the class), and nothing else", () => {
    const copy = Object.assign(new Error("x"), {
      name: "UpstreamError",
      status: 404,
      code: "ticket_not_found",
    });
    expect(isUpstreamError(copy)).toBe(true);
    expect(isUpstreamError(new Error("x"))).toBe(false);
    const other = new TypeError("boom");
    expect(toConsoleError(other)).toBe(other);
  });
});
