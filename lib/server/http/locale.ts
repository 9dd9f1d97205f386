import "server-only";
import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALE_COOKIE,
  type Locale,
  localeFromAcceptLanguage,
} from "@/lib/shared/i18n/locales";
import { readCookie } from "../auth/cookies";
import type { SessionUser } from "../auth/session";

/**
 * The language of a route handler's answer (CSV headers, labels): the user's choice, else the
 * one last chosen on this browser, else the browser's. The same order as the pages
 * (lib/server/i18n/request.ts).
 */
export function requestLocale(request: Request, user: SessionUser | null): Locale {
  const chosen = readCookie(request.headers.get("cookie"), LOCALE_COOKIE);
  return (
    user?.locale ??
    (isLocale(chosen) ? chosen : null) ??
    localeFromAcceptLanguage(request.headers.get("accept-language")) ??
    DEFAULT_LOCALE
  );
}
