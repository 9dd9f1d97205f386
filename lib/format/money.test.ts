import { describe, expect, it } from "vitest";
import { formatMoney, parseAmount } from "./money";

describe("money", () => {
  it("formats integer cents in the currency", () => {
    expect(formatMoney(1050, "EUR")).toBe("€10.50");
    expect(formatMoney(-5, "EUR")).toBe("-€0.05");
    expect(formatMoney(123456, "USD")).toBe("US$1,234.56");
  });
  it("parses typed amounts to cents", () => {
    expect(parseAmount("12")).toBe(1200);
    expect(parseAmount("12.5")).toBe(1250);
    expect(parseAmount("12,05")).toBe(1205);
    expect(parseAmount("0.01")).toBe(1);
    expect(parseAmount("1.234")).toBeNull();
    expect(parseAmount("-3")).toBeNull();
    expect(parseAmount("abc")).toBeNull();
  });
});
