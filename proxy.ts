import { unsealData } from "iron-session";
import { type NextRequest, NextResponse } from "next/server";
import { dashboardConfig } from "@/lib/server/config";
import { SESSION_COOKIE } from "@/lib/server/session-cookie";

const PUBLIC = ["/login", "/api/auth/login"];

/**
 * Sends anonymous visitors to /login (pages) or answers 401 (route handlers). This is only the
 * first gate: every page and route handler checks the session and its permission itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (PUBLIC.some((p) => pathname === p)) return NextResponse.next();
  const seal = request.cookies.get(SESSION_COOKIE)?.value;
  let signedIn = false;
  if (seal) {
    try {
      const data = await unsealData<{ userId?: string }>(seal, {
        password: dashboardConfig().SESSION_SECRET,
      });
      signedIn = Boolean(data.userId);
    } catch {
      signedIn = false;
    }
  }
  if (signedIn) return NextResponse.next();
  if (pathname.startsWith("/api/")) {
    return NextResponse.json(
      { error: { code: "not_signed_in", message: "Sign in first." } },
      { status: 401 },
    );
  }
  const login = new URL("/login", request.url);
  if (pathname !== "/") login.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
