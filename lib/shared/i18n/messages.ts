import { createTranslator } from "next-intl";
import { DEFAULT_LOCALE, type Locale } from "./locales";
import en from "./messages/en.json" with { type: "json" };
import es from "./messages/es.json" with { type: "json" };

/** The console's words in each language; en.json is the reference, es.json must have every key. */
export type Messages = typeof en;
export const MESSAGES: Record<Locale, Messages> = { en, es };

export function messagesFor(locale: Locale): Messages {
  return MESSAGES[locale] ?? MESSAGES[DEFAULT_LOCALE];
}

/** A translator outside React (CSV headers, server answers): the same messages as the screens. */
export function translatorFor(locale: Locale) {
  return createTranslator({ locale, messages: messagesFor(locale) });
}
