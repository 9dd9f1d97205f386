import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import type { Dashboard } from "../dashboard";
import { SESSION_COOKIE, type SessionUser, sessionOfSeal } from "./session";

/**
 * For pages (server components): the signed-in user of this request, checked against the store.
 * Read once per request (React's `cache`): the layout, the page and the language all ask for it.
 */
export const currentUser = cache(async (dashboard: Dashboard): Promise<SessionUser | null> => {
  const seal = (await cookies()).get(SESSION_COOKIE)?.value;
  return (await sessionOfSeal(dashboard.db, dashboard.config, seal, dashboard.clock()))?.user ?? null;
});
