import { z } from "zod";
import { roles } from "../permissions";

/** Answers and parameters of the users screen (managers: `users.manage`). */

export const UsernameSegment = z.object({
  username: z.string().regex(/^[a-z0-9][a-z0-9._-]{2,31}$/, "not a username."),
});

export const RoleBody = z.object({ role: z.enum(roles) });

export const AccountView = z.object({
  username: z.string(),
  role: z.enum(roles),
  created_at: z.string(),
  /** Until when sign-in from new browsers is refused after failures from elsewhere, or null. */
  locked_until: z.string().nullable(),
  /** Live sessions (browsers signed in now). */
  sessions: z.number().int(),
  /** Failed sign-ins in the last 24 hours. */
  failures_24h: z.number().int(),
});
export type AccountView = z.infer<typeof AccountView>;

export const SignInFailure = z.object({
  at: z.string(),
  username: z.string(),
  /** The source address (as the console sees it: the proxy's, with TRUST_PROXY). */
  address: z.string().nullable(),
  /** From a browser this user had signed in from before. */
  trusted_device: z.boolean(),
  outcome: z.enum(["wrong_password", "locked"]),
});
export type SignInFailure = z.infer<typeof SignInFailure>;

/** GET /api/users */
export const UsersView = z.object({
  users: z.array(AccountView),
  /** The latest failed sign-ins of known accounts, newest first. */
  failures: z.array(SignInFailure),
  /** Failed sign-ins naming no account, in the last 24 hours (a spray shows here). */
  unknown_failures_24h: z.number().int(),
  timeZone: z.string(),
});
export type UsersView = z.infer<typeof UsersView>;

/**
 * POST /api/users/{username}/unlock, /sign-out, /role: the account after, the sessions ended, and
 * whether anything changed (false: the user had that role already, was not locked, had no session).
 */
export const UserActionAnswer = z.object({
  user: AccountView,
  ended_sessions: z.number().int(),
  changed: z.boolean(),
});
export type UserActionAnswer = z.infer<typeof UserActionAnswer>;
