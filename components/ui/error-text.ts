"use client";

import { useLocale, useTranslations } from "next-intl";
import { isConsoleError } from "@/lib/shared/api/errors";
import { DEFAULT_LOCALE } from "@/lib/shared/i18n/locales";

/**
 * The words for an error. The server writes its messages in English, with details (the field, the
 * wait); in another language the browser says the error's code in that language, and falls back to
 * the server's words for a code it has no translation of.
 */
export function useErrorText(): (err: unknown) => string {
  const t = useTranslations("errors");
  const locale = useLocale();
  return (err) => {
    if (!isConsoleError(err)) return t("unavailable");
    if (locale === DEFAULT_LOCALE || !t.has(err.code)) return err.message;
    return t(err.code);
  };
}
