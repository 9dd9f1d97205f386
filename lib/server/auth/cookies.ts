import "server-only";

/** Reading a request's Cookie header and writing Set-Cookie values, for the console's own cookies. */

/** The value of one cookie of a Cookie header, or undefined. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw.replace(/^"(.*)"$/, "$1"));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface CookieAttributes {
  /** Seconds; 0 removes the cookie. */
  maxAge: number;
  path?: string;
  sameSite: "Lax" | "Strict";
  secure: boolean;
}

/** One Set-Cookie value: always HttpOnly (no script ever reads the console's cookies). */
export function setCookie(name: string, value: string, attributes: CookieAttributes): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${attributes.path ?? "/"}`,
    `Max-Age=${attributes.maxAge}`,
    ...(attributes.maxAge === 0 ? ["Expires=Thu, 01 Jan 1970 00:00:00 GMT"] : []),
    "HttpOnly",
    `SameSite=${attributes.sameSite}`,
    ...(attributes.secure ? ["Secure"] : []),
  ].join("; ");
}

/** The response with these Set-Cookie values added. */
export function withCookies<R extends Response>(response: R, cookies: string[]): R {
  for (const cookie of cookies) response.headers.append("set-cookie", cookie);
  return response;
}
