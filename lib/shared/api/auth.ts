import { z } from "zod";
import { roles } from "../permissions";

/** POST /api/auth/login */
export const SignInAnswer = z.object({
  user: z.object({ username: z.string(), role: z.enum(roles) }),
  /** The first screen of the user's role. */
  home: z.string(),
});
export type SignInAnswer = z.infer<typeof SignInAnswer>;

export const OkAnswer = z.object({ ok: z.literal(true) });

/** POST /api/auth/logout-everywhere: how many sessions ended. */
export const SignedOutEverywhere = z.object({ ok: z.literal(true), ended: z.number().int() });
