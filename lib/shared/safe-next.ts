/**
 * Where the browser may go after signing in: only a path of this console. `next` comes from the
 * query string (already decoded once). It is refused unless it is a plain absolute path: no
 * backslash, no control, space or invisible character (browsers drop some of them, turning
 * "/\t/evil.example" into "//evil.example"), no second leading slash (protocol-relative) — and no
 * backslash, control character or leading "//" in any further percent-decoding of it either
 * ("/%5Cevil.example", "/%2F%2Fevil.example"). Parsed with URL, it must stay on the console's own
 * origin. Answers the normalised path (path, query and fragment), or null.
 */
const PLACEHOLDER_ORIGIN = "http://console.invalid";

const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const UNSAFE_DECODED = /[\\\u0000-\u001f\u007f]/;

const plainPath = (form: string) => form.startsWith("/") && !form.startsWith("//");

export function safeNextPath(next: string | null | undefined): string | null {
  if (typeof next !== "string" || next.length > 2000) return null;
  if (!plainPath(next) || next.includes("\\") || INVISIBLE.test(next)) return null;
  let form = next;
  for (let depth = 0; ; depth++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(form);
    } catch {
      return null;
    }
    if (decoded === form) break;
    // Deeper than any honest path is encoded.
    if (depth === 3 || !plainPath(decoded) || UNSAFE_DECODED.test(decoded)) return null;
    form = decoded;
  }
  let url: URL;
  try {
    url = new URL(next, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
