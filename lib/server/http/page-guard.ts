import "server-only";
import { redirect } from "next/navigation";
import { can, homeFor, type Permission, screens } from "@/lib/shared/permissions";
import { currentUser } from "../auth/page-session";
import type { SessionUser } from "../auth/session";
import { getDashboard } from "../dashboard";

/** The query parameter that tells a role's home which screen the role was sent away from. */
export const DENIED_PARAM = "denied";

/**
 * For pages: the signed-in user, who may see this screen. A role that may not is sent to its home
 * with `?denied=<the screen's path>` (shown there as a short notice), never to a dead end.
 */
export async function pageUser(permission: Permission): Promise<{ user: SessionUser }> {
  const user = await signedInUser();
  if (!can(user.role, permission)) redirect(deniedRedirect(user, permission));
  return { user };
}

/** The role's home, naming the screen it was refused (the first screen that needs `permission`). */
export function deniedRedirect(user: SessionUser, permission: Permission): string {
  const screen = screens.find((s) => s.permission === permission);
  const query = new URLSearchParams({ [DENIED_PARAM]: screen?.href ?? "" });
  return `${homeFor(user.role)}?${query}`;
}

/** For the console's layout: the signed-in user, or a redirect to the sign-in page. */
export async function signedInUser(): Promise<SessionUser> {
  const user = await currentUser(await getDashboard());
  if (!user) redirect("/login");
  return user;
}
