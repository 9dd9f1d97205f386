import { withCookies } from "@/lib/server/auth/cookies";
import { SignInBody, signIn } from "@/lib/server/auth/sign-in";
import { readBody } from "@/lib/server/http/input";
import { answer } from "@/lib/server/http/respond";
import { publicRoute } from "@/lib/server/http/route";
import { SignInAnswer } from "@/lib/shared/api/auth";

/** Sign-in under the throttling rules; sets the session cookie and this browser's device cookie. */
export const POST = publicRoute(async ({ request, dashboard, client }) => {
  const result = await signIn(dashboard, await readBody(request, SignInBody), client);
  return withCookies(answer(SignInAnswer, result.answer), result.cookies);
});
