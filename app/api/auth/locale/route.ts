import { chooseLocale } from "@/lib/server/auth/locale";
import { answered, handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

/** Signed in, the language is kept with the account; the cookie keeps it for this browser. */
export const POST = handle(endpoints.auth.locale, async ({ body, dashboard, session }) => {
  const result = await chooseLocale(dashboard, session, body.locale);
  return answered(result.answer, { cookies: result.cookies });
});
