import { signOutEverywhere } from "@/lib/server/auth/sign-in";
import { answered, handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.auth.logoutEverywhere, async ({ dashboard, session }) => {
  const result = await signOutEverywhere(dashboard, session);
  return answered(result.answer, { cookies: result.cookies });
});
