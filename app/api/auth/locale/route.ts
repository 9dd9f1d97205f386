import { withCookies } from "@/lib/server/auth/cookies";
import { chooseLocale } from "@/lib/server/auth/locale";
import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { publicRoute } from "@/lib/server/http/route";
import { LocaleChoice, LocaleChosen } from "@/lib/shared/api/auth";

/** The language switcher (header and sign-in page): signed in, it is kept with the account. */
export const POST = publicRoute(async ({ request, dashboard, session }) => {
  const { locale } = await readBody(request, LocaleChoice);
  const result = await chooseLocale(dashboard, session, locale);
  return withCookies(answer(LocaleChosen, result.answer), result.cookies);
});
