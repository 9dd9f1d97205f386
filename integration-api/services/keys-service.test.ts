import { describe, expect, it } from "vitest";
import { hashKey, hasScope, ipAllowed } from "./keys-service";

describe("key helpers", () => {
  it("matches addresses and CIDR blocks of both families, IPv4-mapped included", () => {
    expect(ipAllowed([], "203.0.113.9")).toBe(true);
    expect(ipAllowed(["203.0.113.9"], "203.0.113.9")).toBe(true);
    expect(ipAllowed(["203.0.113.9"], "203.0.113.10")).toBe(false);
    expect(ipAllowed(["10.1.0.0/16"], "10.1.200.3")).toBe(true);
    expect(ipAllowed(["10.1.0.0/16"], "10.2.0.1")).toBe(false);
    expect(ipAllowed(["127.0.0.1"], "::ffff:127.0.0.1")).toBe(true);
    expect(ipAllowed(["2001:db8::/32"], "2001:db8::1")).toBe(true);
    expect(ipAllowed(["2001:db8::/32"], "2001:db9::1")).toBe(false);
    expect(ipAllowed(["127.0.0.1"], "")).toBe(false);
  });

  it("grants a scope directly or through *", () => {
    expect(hasScope(["tickets.read"], "tickets.read")).toBe(true);
    expect(hasScope(["tickets.read"], "cashless.read")).toBe(false);
    expect(hasScope(["*"], "cashless.write")).toBe(true);
  });

  it("hashes the whole key with SHA-256", () => {
    expect(hashKey("eak_test_x")).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey("eak_test_x")).not.toBe(hashKey("eak_test_y"));
  });
});
