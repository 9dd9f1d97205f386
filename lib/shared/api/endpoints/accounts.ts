import { z } from "zod";
import { LocaleChoice, LocaleChosen, OkAnswer, SignedOutEverywhere, SignInAnswer, SignInBody } from "../auth";
import { ConnectionReport } from "../connection";
import { RoleBody, UserActionAnswer, UsernameSegment, UsersView } from "../users";
import { endpoint } from "./define";

/** Signing in and out, and the language: reachable without a session. */
export const auth = {
  login: endpoint({
    name: "auth.login",
    summary: "Sign-in under the throttling rules; sets the session cookie and this browser's device cookie.",
    method: "POST",
    path: "/api/auth/login",
    permission: "public",
    body: SignInBody,
    answer: SignInAnswer,
    refresh: "once",
  }),
  logout: endpoint({
    name: "auth.logout",
    summary:
      "Ends this session in the store (an old copy of the cookie is refused at once) and clears the cookie.",
    method: "POST",
    path: "/api/auth/logout",
    permission: "public",
    answer: OkAnswer,
    refresh: "once",
  }),
  logoutEverywhere: endpoint({
    name: "auth.logout_everywhere",
    summary: '"Sign out everywhere": ends every session of the signed-in user, on every instance.',
    method: "POST",
    path: "/api/auth/logout-everywhere",
    permission: "public",
    answer: SignedOutEverywhere,
    refresh: "once",
  }),
  locale: endpoint({
    name: "auth.locale",
    summary: "The language switcher (header and sign-in page): signed in, it is kept with the account.",
    method: "POST",
    path: "/api/auth/locale",
    permission: "public",
    body: LocaleChoice,
    answer: LocaleChosen,
    refresh: "once",
  }),
};

/** The accounts (managers). */
export const users = {
  list: endpoint({
    name: "users.list",
    summary: "Every account with its lock, live sessions and recent failed sign-ins (managers).",
    method: "GET",
    path: "/api/users",
    permission: "users.manage",
    answer: UsersView,
    refresh: "live",
    pushedBy: [],
  }),
  role: endpoint({
    name: "users.role",
    summary: "A new role for a user: their sessions end, they sign in again with the new role's screens.",
    method: "POST",
    path: "/api/users/{username}/role",
    permission: "users.manage",
    params: UsernameSegment,
    body: RoleBody,
    answer: UserActionAnswer,
    refresh: "once",
  }),
  signOut: endpoint({
    name: "users.sign_out",
    summary: "Ends every session of a user, on every instance (a lost phone, a stolen cookie).",
    method: "POST",
    path: "/api/users/{username}/sign-out",
    permission: "users.manage",
    params: UsernameSegment,
    answer: UserActionAnswer,
    refresh: "once",
  }),
  unlock: endpoint({
    name: "users.unlock",
    summary: "Lifts the lock for new browsers that failures from elsewhere put on an account.",
    method: "POST",
    path: "/api/users/{username}/unlock",
    permission: "users.manage",
    params: UsernameSegment,
    answer: UserActionAnswer,
    refresh: "once",
  }),
};

/** The connection to the upstream API. */
export const connection = {
  report: endpoint({
    name: "connection.report",
    summary:
      "The connection screen: a live GET /ping (the key's scopes, restrictions, quota) and the sync status.",
    method: "GET",
    path: "/api/connection",
    permission: "connection.view",
    answer: ConnectionReport,
    refresh: "live",
    pushedBy: ["cycle", "sync"],
  }),
};

/** This API, described (managers: the same permission as the accounts). */
export const docs = {
  openapi: endpoint({
    name: "docs.openapi",
    summary: "The OpenAPI 3.1 document of the console's own API, made from these declarations.",
    method: "GET",
    path: "/api/openapi.json",
    permission: "users.manage",
    answer: z.record(z.string(), z.unknown()),
    refresh: "once",
  }),
};
