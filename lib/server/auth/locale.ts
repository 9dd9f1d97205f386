import "server-only";
import type { Locale } from "@/lib/shared/i18n/locales";
import { LOCALE_COOKIE } from "@/lib/shared/i18n/locales";
import type { Dashboard } from "../dashboard";
import { updateLocale } from "../store/users";
import { setCookie } from "./cookies";
import type { Session } from "./session";

const YEAR_S = 365 * 24 * 3600;

/**
 * A language chosen in the header or on the sign-in page: kept with the account when someone is
 * signed in (it follows them to any browser), and in a cookie so the sign-in page of this browser
 * speaks it too after signing out.
 */
export async function chooseLocale(dashboard: Dashboard, session: Session | null, locale: Locale) {
  if (session) await updateLocale(dashboard.db, session.user.id, locale);
  const cookie = setCookie(LOCALE_COOKIE, locale, {
    maxAge: YEAR_S,
    sameSite: "Lax",
    secure: dashboard.config.NODE_ENV === "production",
  });
  return { answer: { locale, saved_with_account: session !== null }, cookies: [cookie] };
}
