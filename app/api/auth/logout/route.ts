import { signOut } from "@/lib/server/auth/sign-in";
import { answered, handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const POST = handle(endpoints.auth.logout, async ({ dashboard, session }) =>
  answered({ ok: true } as const, { cookies: (await signOut(dashboard, session)).cookies }),
);
