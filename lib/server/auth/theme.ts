import "server-only";
import type { Theme } from "@/lib/shared/theme";
import { THEME_COOKIE } from "@/lib/shared/theme";
import type { Dashboard } from "../dashboard";
import { updateTheme } from "../store/users";
import { setCookie } from "./cookies";
import type { Session } from "./session";

const YEAR_S = 365 * 24 * 3600;

/**
 * A theme chosen in the navigation: kept with the account (it follows the user to any browser) and
 * in a cookie, so this browser's first paint is in it even before a page knows who is signed in.
 * A wall has no account: only the cookie.
 */
export async function chooseTheme(dashboard: Dashboard, session: Session, theme: Theme) {
  const account = session.wall === undefined;
  if (account) await updateTheme(dashboard.db, session.user.id, theme);
  const cookie = setCookie(THEME_COOKIE, theme, {
    maxAge: YEAR_S,
    sameSite: "Lax",
    secure: dashboard.config.NODE_ENV === "production",
  });
  return { answer: { theme, saved_with_account: account }, cookies: [cookie] };
}
