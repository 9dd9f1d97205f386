import "server-only";
import { cookies } from "next/headers";
import { isTheme, THEME_COOKIE, type Theme } from "@/lib/shared/theme";
import { getDashboard } from "../dashboard";
import { currentUser } from "./page-session";
import { SESSION_COOKIE } from "./session-cookie";

/**
 * The theme a page is painted in (the class on <html>, so the first paint is right): the signed-in
 * user's choice (a wall's is always dark), else the one last chosen on this browser, else the system's.
 */
export async function pageTheme(): Promise<Theme> {
  const jar = await cookies();
  let account: Theme | null = null;
  if (jar.has(SESSION_COOKIE)) {
    try {
      account = (await currentUser(await getDashboard()))?.theme ?? null;
    } catch {
      // The page that needs the session fails on its own; the colours can fall back.
    }
  }
  const cookie = jar.get(THEME_COOKIE)?.value;
  return account ?? (isTheme(cookie) ? cookie : "system");
}
