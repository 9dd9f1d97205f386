/**
 * The console's languages. A user's language picks the words and the number/date conventions
 * (decimal comma, day names); the event still decides the currency and the time zone.
 */
export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Names of the languages, each in itself (the switcher shows them so). */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", es: "Español" };

/** The cookie that keeps the last chosen language for the sign-in page (not a secret). */
export const LOCALE_COOKIE = "console_locale";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The Intl locale used to format numbers, money and dates in a language. */
export function intlLocale(locale: Locale): string {
  return locale === "es" ? "es-ES" : "en-GB";
}

/**
 * The language to answer in: the account's choice, else the one last chosen on this browser (the
 * cookie), else the browser's Accept-Language, else English. Pages and route handlers alike.
 */
export function pickLocale(from: {
  account: Locale | null | undefined;
  cookie: string | null | undefined;
  acceptLanguage: string | null | undefined;
}): Locale {
  return (
    from.account ??
    (isLocale(from.cookie) ? from.cookie : null) ??
    localeFromAcceptLanguage(from.acceptLanguage) ??
    DEFAULT_LOCALE
  );
}

/** The first supported language of an Accept-Language header, by its q-values; null when none is. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { language: tag.trim().toLowerCase().split("-")[0] ?? "", q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((r) => r.language).find(isLocale) ?? null;
}
