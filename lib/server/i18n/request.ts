import "server-only";
import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LOCALE_COOKIE, type Locale, pickLocale } from "@/lib/shared/i18n/locales";
import { messagesFor } from "@/lib/shared/i18n/messages";
import { currentUser } from "../auth/page-session";
import { SESSION_COOKIE } from "../auth/session";
import { getDashboard } from "../dashboard";

/**
 * The language of a request (next-intl's request configuration, named in next.config.ts): the
 * signed-in user's, else the one last chosen on this browser, else the browser's Accept-Language.
 */
export default getRequestConfig(async () => {
  const jar = await cookies();
  const locale = pickLocale({
    account: jar.has(SESSION_COOKIE) ? await accountLocale() : null,
    cookie: jar.get(LOCALE_COOKIE)?.value,
    acceptLanguage: (await headers()).get("accept-language"),
  });
  return { locale, messages: messagesFor(locale), timeZone: "UTC" };
});

/** The signed-in user's language; none when the session is not (or no longer) valid. */
async function accountLocale(): Promise<Locale | null> {
  try {
    return (await currentUser(await getDashboard()))?.locale ?? null;
  } catch {
    // A page that needs the session fails on its own, with its own error; the words can fall back.
    return null;
  }
}
