import "server-only";
import { redirect } from "next/navigation";
import { can, homeFor, type Permission, type Role, screens } from "@/lib/shared/permissions";
import { currentUser } from "../auth/page-session";
import type { SessionUser } from "../auth/session";
import { getDashboard } from "../dashboard";

/** The query parameter that tells a role's home which screen the role was sent away from. */
export const DENIED_PARAM = "denied";

/**
 * For pages: the signed-in user, who may see this screen. A role that may not is sent to its home
 * with `?denied=<the screen's path>` (shown there as a short notice), never to a dead end.
 */
export async function pageUser(permission: Permission): Promise<{ user: ConsoleUser }> {
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

/** A user of the console's screens: a person with a role (never a wall). */
export type ConsoleUser = SessionUser & { role: Role };

/**
 * For the console's layout and pages: the signed-in user, or a redirect to the sign-in page. A wall's
 * session opens no screen of the console: it is sent to the wall.
 */
export async function signedInUser(): Promise<ConsoleUser> {
  const user = await currentUser(await getDashboard());
  if (!user) redirect("/login");
  if (user.role === "wall") redirect("/wall");
  return user as ConsoleUser;
}

/** For the wall page: a wall's session, or a user whose role may look at the wall. */
export async function wallViewer(): Promise<SessionUser> {
  const user = await currentUser(await getDashboard());
  if (!user) redirect("/login?next=%2Fwall");
  if (!can(user.role, "wall.view")) redirect(deniedRedirect(user, "wall.view"));
  return user;
}

/**
 * For the root layout: how far the console's clock is from the system clock, in ms — 0 but in a
 * sandbox started at a chosen time (SANDBOX_START_AT). Browsers add it to their own clock, so that
 * "2 s ago" and the wall's time read the sandbox's instant.
 */
export async function pageClockOffsetMs(): Promise<number> {
  return (await getDashboard()).sandboxClock?.offsetMs ?? 0;
}
