import { unsealData } from "iron-session";
import { type NextRequest, NextResponse } from "next/server";
import { SESSION_COOKIE } from "@/lib/server/auth/session-cookie";
import { dashboardConfig } from "@/lib/server/config";
import { badAddressPage } from "@/lib/server/http/bad-address";
import { ConsoleError, errorEnvelope } from "@/lib/shared/api/errors";

// The language switcher works before sign-in too: the choice is then kept in the browser's cookie.
const PUBLIC = ["/login", "/api/auth/login", "/api/auth/logout", "/api/auth/locale"];

/** Whether every percent-escape of the path decodes (`/tickets/%E0` does not). */
function decodablePath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first gate of every request. A path whose percent-encoding is malformed is answered 400 here
 * (JSON for route handlers, an error page for pages), before the framework fails decoding it with
 * a plain-text 500. Anonymous visitors are sent to /login (pages) or answered 401 (route
 * handlers). Only a first gate: every page and route handler checks the session in the store and
 * its permission itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (!decodablePath(pathname)) {
    const error = new ConsoleError(
      "invalid_path",
      "This address is malformed (a broken %-escape): check the link.",
    );
    return pathname.startsWith("/api/")
      ? NextResponse.json(errorEnvelope(error), { status: error.status })
      : new NextResponse(badAddressPage(error.message), {
          status: error.status,
          headers: { "content-type": "text/html; charset=utf-8" },
        });
  }
  if (PUBLIC.some((p) => pathname === p)) return NextResponse.next();
  const seal = request.cookies.get(SESSION_COOKIE)?.value;
  let signedIn = false;
  if (seal) {
    try {
      const data = await unsealData<{ sid?: string }>(seal, { password: dashboardConfig().SESSION_SECRET });
      signedIn = typeof data.sid === "string";
    } catch {
      signedIn = false;
    }
  }
  if (signedIn) return NextResponse.next();
  if (pathname.startsWith("/api/")) {
    return NextResponse.json(errorEnvelope(new ConsoleError("not_signed_in", "Sign in first.")), {
      status: 401,
    });
  }
  const login = new URL("/login", request.url);
  if (pathname !== "/") login.searchParams.set("next", `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
