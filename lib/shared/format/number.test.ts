import { describe, expect, it } from "vitest";
import { formatCount } from "./number";

// Intl separates with (narrow) no-break spaces in some locales; compare with plain ones.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formatCount", () => {
  it("groups thousands the en-GB way by default", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1234)).toBe("1,234");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-4321)).toBe("-4,321");
  });

  it("prints what toLocaleString printed before (the e2e tests compare with it)", () => {
    for (const n of [0, 7, 1200, 98765, 1000000]) expect(formatCount(n)).toBe(n.toLocaleString("en-GB"));
  });

  it("follows the locale when asked", () => {
    expect(formatCount(1234567, "de-DE")).toBe("1.234.567");
    expect(plain(formatCount(1234567, "fr-FR"))).toBe("1 234 567");
    expect(formatCount(1234, "en-GB")).toBe("1,234");
  });

  it("shows counts as whole numbers", () => {
    expect(formatCount(2.6)).toBe("3");
  });
});
