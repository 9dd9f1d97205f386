import { describe, expect, it } from "vitest";
import { decimalString, formatMoney as format, minorDigits, parseAmount, toMajor } from "./money";

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

describe("parseAmount", () => {
  it("parses typed amounts to cents", () => {
    expect(parseAmount("12", "EUR")).toBe(1200);
    expect(parseAmount("12.5", "EUR")).toBe(1250);
    expect(parseAmount("12,05", "EUR")).toBe(1205);
    expect(parseAmount("0.01", "EUR")).toBe(1);
    expect(parseAmount("1.234", "EUR")).toBeNull();
    expect(parseAmount("-3", "EUR")).toBeNull();
    expect(parseAmount("abc", "EUR")).toBeNull();
  });
  it("parses counted amounts in major units, negatives allowed, with the currency's digits", () => {
    const major = (text: string, currency: string) => parseAmount(text, currency, { negative: true });
    expect(major("12.34", "EUR")).toBe(1234);
    expect(major("1,234.5", "EUR")).toBe(123450);
    expect(major(" 7 ", "EUR")).toBe(700);
    expect(major("-0.05", "EUR")).toBe(-5);
    expect(major("0.1", "EUR")).toBe(10);
    expect(major("100", "JPY")).toBe(100);
    expect(major("1.234", "EUR")).toBeNull();
    expect(major("abc", "EUR")).toBeNull();
    expect(major("", "EUR")).toBeNull();
  });
  it("knows each currency's decimals and both decimal marks", () => {
    expect(parseAmount("1500", "JPY")).toBe(1500);
    expect(parseAmount("1,500", "JPY")).toBe(1500);
    expect(parseAmount("15.5", "JPY")).toBeNull();
    expect(parseAmount("1.234", "KWD")).toBe(1234);
    expect(parseAmount("1.234,56", "EUR")).toBe(123456);
    expect(parseAmount("1 234,5", "EUR")).toBe(123450);
    expect(parseAmount("1,234", "EUR")).toBe(123400);
    expect(parseAmount("1.2.3", "EUR")).toBeNull();
    expect(parseAmount("12,", "EUR")).toBeNull();
  });
});
