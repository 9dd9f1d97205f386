import { describe, expect, it } from "vitest";
import { HttpError } from "@/lib/server/guard";
import { ApiError } from "@/lib/server/upstream/client";
import { isApiError, plainWords, toHttpError } from "./errors";

describe("upstream errors in plain words", () => {
  const err = (code: string, status = 409, param?: string) =>
    new ApiError({
      status,
      type: "conflict_error",
      code,
      message: `upstream says ${code}`,
      param,
      request_id: "req_1",
    });

  it("keeps the status and code, explains the code, and carries the request id", () => {
    const http = toHttpError(err("insufficient_balance")) as HttpError;
    expect(http).toBeInstanceOf(HttpError);
    expect(http).toMatchObject({ status: 409, code: "insufficient_balance", requestId: "req_1" });
    expect(http.message).toContain("only the paid balance can be withdrawn");
  });

  it("falls back to the upstream message, naming the field", () => {
    expect(plainWords(err("something_new", 400, "amount"))).toBe(
      "upstream says something_new (field amount)",
    );
  });

  it("answers 502 when the upstream gave no answer at all", () => {
    const http = toHttpError(err("network_error", 0)) as HttpError;
    expect(http.status).toBe(502);
    expect(http.message).toContain("cannot be reached");
  });

  it("recognises an ApiError by shape (bundles may hold two copies of the class), and nothing else", () => {
    const copy = Object.assign(new Error("x"), { name: "ApiError", status: 404, code: "ticket_not_found" });
    expect(isApiError(copy)).toBe(true);
    expect(isApiError(new Error("x"))).toBe(false);
    const other = new TypeError("boom");
    expect(toHttpError(other)).toBe(other);
  });
});
