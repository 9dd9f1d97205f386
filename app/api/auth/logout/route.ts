import { withCookies } from "@/lib/server/auth/cookies";
import { signOut } from "@/lib/server/auth/sign-in";
import { answer } from "@/lib/server/http/respond";
import { publicRoute } from "@/lib/server/http/route";
import { OkAnswer } from "@/lib/shared/api/auth";

/** Ends this session in the store (an old copy of the cookie is refused at once) and clears the cookie. */
export const POST = publicRoute(async ({ dashboard, session }) =>
  withCookies(answer(OkAnswer, { ok: true }), (await signOut(dashboard, session)).cookies),
);
