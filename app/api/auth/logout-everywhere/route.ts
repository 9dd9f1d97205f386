import { withCookies } from "@/lib/server/auth/cookies";
import { signOutEverywhere } from "@/lib/server/auth/sign-in";
import { answer } from "@/lib/server/http/respond";
import { publicRoute } from "@/lib/server/http/route";
import { SignedOutEverywhere } from "@/lib/shared/api/auth";

/** "Sign out everywhere": ends every session of the signed-in user, on every instance. */
export const POST = publicRoute(async ({ dashboard, session }) => {
  const result = await signOutEverywhere(dashboard, session);
  return withCookies(answer(SignedOutEverywhere, result.answer), result.cookies);
});
