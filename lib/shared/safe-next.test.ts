import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next";

/** `next` as the login page receives it: the query string's value, decoded once. */
const fromQuery = (raw: string) => new URLSearchParams(`next=${raw}`).get("next");

describe("where the browser goes after signing in", () => {
  it.each([
    ["/tickets", "/tickets"],
    ["/tickets?status=active", "/tickets?status=active"],
    ["/tickets/T%20001", "/tickets/T%20001"],
    ["/wristbands/04A1#sales", "/wristbands/04A1#sales"],
    ["/a/../reconciliation", "/reconciliation"],
  ])("keeps a path of the console: %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    // The cases, as the query string delivers them.
    ["/%5Cevil.example", fromQuery("/%5Cevil.example")],
    ["/%09/evil.example", fromQuery("/%09/evil.example")],
    ["/\\evil.example/x", "/\\evil.example/x"],
    // Protocol-relative, absolute and scheme forms.
    ["//evil.example", "//evil.example"],
    ["///evil.example", "///evil.example"],
    ["https://evil.example/", "https://evil.example/"],
    ["javascript:alert(1)", "javascript:alert(1)"],
    ["evil.example", "evil.example"],
    // Control characters and whitespace a browser would drop ("/\t/evil" → "//evil").
    ["/\t/evil.example", "/\t/evil.example"],
    ["/\n/evil.example", "/\n/evil.example"],
    ["/\r/evil.example", "/\r/evil.example"],
    [" /tickets", " /tickets"],
    ["/\u0000/evil.example", "/\u0000/evil.example"],
    ["/\u200b/evil.example", "/\u200b/evil.example"],
    // Encoded variants, once or twice.
    ["/%2F/evil.example", "/%2F/evil.example"],
    ["/%2f%2fevil.example", "/%2f%2fevil.example"],
    ["/%5C%5Cevil.example", "/%5C%5Cevil.example"],
    ["/%255Cevil.example", "/%255Cevil.example"],
    ["/%252F/evil.example", "/%252F/evil.example"],
    ["/%09/evil.example (raw)", "/%09/evil.example"],
    ["/%E0 (malformed)", "/%E0"],
    // Nothing.
    ["empty", ""],
  ])("refuses %s", (_label, next) => {
    expect(safeNextPath(next)).toBeNull();
  });

  it("refuses what is not a string, and what is absurdly long", () => {
    expect(safeNextPath(undefined)).toBeNull();
    expect(safeNextPath(null)).toBeNull();
    expect(safeNextPath(`/${"a".repeat(3000)}`)).toBeNull();
  });
});
