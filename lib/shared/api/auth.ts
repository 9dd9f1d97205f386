import { z } from "zod";
import { LOCALES } from "../i18n/locales";
import { roles } from "../permissions";
import { typedText } from "./params";

/** POST /api/auth/login: the username is matched in lower case. */
export const SignInBody = z.object({
  username: typedText({ min: 1, max: 64, tooShort: "Enter a username." }).transform((name) =>
    name.toLowerCase(),
  ),
  password: z.string().min(1, "Enter a password.").max(256),
});
export type SignInBody = z.output<typeof SignInBody>;

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

/** POST /api/auth/locale: the language to read the console in (kept with the account when signed in). */
export const LocaleChoice = z.object({ locale: z.enum(LOCALES) }).strict();
export const LocaleChosen = z.object({ locale: z.enum(LOCALES), saved_with_account: z.boolean() });
