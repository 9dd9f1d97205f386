import "server-only";
import { LOCALE_COOKIE, type Locale, pickLocale } from "@/lib/shared/i18n/locales";
import { readCookie } from "../auth/cookies";
import type { SessionUser } from "../auth/session";

/** The language of a route handler's answer (CSV headers, labels): the same rule as the pages. */
export function requestLocale(request: Request, user: SessionUser | null): Locale {
  return pickLocale({
    account: user?.locale,
    cookie: readCookie(request.headers.get("cookie"), LOCALE_COOKIE),
    acceptLanguage: request.headers.get("accept-language"),
  });
}
