import { signIn } from "@/lib/server/auth/sign-in";
import { answered, handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

/** Sets the session cookie and this browser's device cookie. */
export const POST = handle(endpoints.auth.login, async ({ body, dashboard, client }) => {
  const result = await signIn(dashboard, body, client);
  return answered(result.answer, { cookies: result.cookies });
});
