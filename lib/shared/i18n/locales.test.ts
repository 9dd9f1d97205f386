import { describe, expect, it } from "vitest";
import { intlLocale, isLocale, localeFromAcceptLanguage, pickLocale } from "./locales";

describe("locales", () => {
  it("picks the best supported language of an Accept-Language header", () => {
    expect(localeFromAcceptLanguage("es-ES,es;q=0.9,en;q=0.8")).toBe("es");
    expect(localeFromAcceptLanguage("fr-FR,fr;q=0.9,en;q=0.5,es;q=0.7")).toBe("es");
    expect(localeFromAcceptLanguage("en-US")).toBe("en");
    expect(localeFromAcceptLanguage("fr, de;q=0.5")).toBeNull();
    expect(localeFromAcceptLanguage("es;q=0, en;q=0.1")).toBe("en");
    expect(localeFromAcceptLanguage("")).toBeNull();
  });

  it("knows its languages and formats with their conventions", () => {
    expect(isLocale("es")).toBe(true);
    expect(isLocale("fr")).toBe(false);
    const es = new Intl.NumberFormat(intlLocale("es"), { style: "currency", currency: "EUR" });
    expect(es.format(12345.5).replace(/\s/g, " ")).toBe("12.345,50 €");
    expect(
      new Intl.NumberFormat(intlLocale("en"), { style: "currency", currency: "EUR" }).format(1234.5),
    ).toBe("€1,234.50");
  });

  it("answers in the account's language, else the browser's last choice, else its Accept-Language", () => {
    const spanishBrowser = "es-ES,es;q=0.9";
    expect(pickLocale({ account: "en", cookie: "es", acceptLanguage: spanishBrowser })).toBe("en");
    expect(pickLocale({ account: null, cookie: "en", acceptLanguage: spanishBrowser })).toBe("en");
    expect(pickLocale({ account: null, cookie: "fr", acceptLanguage: spanishBrowser })).toBe("es");
    expect(pickLocale({ account: undefined, cookie: undefined, acceptLanguage: "de" })).toBe("en");
  });
});
