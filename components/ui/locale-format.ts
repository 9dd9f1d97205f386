"use client";

import { useLocale, useTranslations } from "next-intl";
import { intlLocale, isLocale } from "@/lib/shared/i18n/locales";

/** The Intl locale of the user's language ("es-ES"), for numbers, money and dates. */
export function useIntlLocale(): string {
  const locale = useLocale();
  return intlLocale(isLocale(locale) ? locale : "en");
}

/**
 * Words for values of the data (payment methods, natures, directions, statuses, scan reasons):
 * the language's word when there is one, else the value itself, readable.
 */
export function useValueText(): (value: string) => string {
  const t = useTranslations("value");
  return (value) => (t.has(value) ? t(value) : value.replaceAll("_", " "));
}
