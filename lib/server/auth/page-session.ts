import "server-only";
import { cookies } from "next/headers";
import type { Dashboard } from "../dashboard";
import { SESSION_COOKIE, type SessionUser, sessionOfSeal } from "./session";

/** For pages (server components): the signed-in user of this request, checked against the store. */
export async function currentUser(dashboard: Dashboard): Promise<SessionUser | null> {
  const seal = (await cookies()).get(SESSION_COOKIE)?.value;
  return (await sessionOfSeal(dashboard.db, dashboard.config, seal))?.user ?? null;
}
