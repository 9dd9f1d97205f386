import { describe, expect, it } from "vitest";
import { decimalString, formatMoney as format, minorDigits, toMajor } from "./money";

// Intl separates with (narrow) no-break spaces; compare with plain ones.
const formatMoney = (...args: Parameters<typeof format>) => format(...args).replace(/[\u00a0\u202f]/g, " ");

describe("money formatting", () => {
  it("formats minor units in the event currency", () => {
    expect(formatMoney(123456, "EUR")).toBe("€1,234.56");
    expect(formatMoney(5, "EUR")).toBe("€0.05");
    expect(formatMoney(0, "EUR")).toBe("€0.00");
    expect(formatMoney(-250, "EUR")).toBe("-€2.50");
    expect(formatMoney(199, "GBP")).toBe("£1.99");
    expect(formatMoney(1500, "USD")).toBe("US$15.00");
  });

  it("respects currencies without or with three minor digits", () => {
    expect(minorDigits("JPY")).toBe(0);
    expect(formatMoney(1500, "JPY")).toBe("JP¥1,500");
    expect(minorDigits("KWD")).toBe(3);
    expect(formatMoney(1500, "KWD")).toBe("KWD 1.500");
  });

  it("follows the locale when asked", () => {
    expect(formatMoney(123456, "EUR", "es-ES")).toBe("1234,56 €");
    expect(formatMoney(1234567, "EUR", "de-DE")).toBe("12.345,67 €");
  });

  it("gives plain numbers for charts and CSV", () => {
    expect(toMajor(123456, "EUR")).toBe(1234.56);
    expect(decimalString(123456, "EUR")).toBe("1234.56");
    expect(decimalString(-5, "EUR")).toBe("-0.05");
    expect(decimalString(700, "JPY")).toBe("700");
  });
});
