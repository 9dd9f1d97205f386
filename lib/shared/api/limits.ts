/**
 * Size limits of request bodies, declared once: the server enforces them while reading a body
 * (`lib/server/http/input.ts`, before the framework's own limit in next.config.ts), the browser
 * checks before sending.
 */

/** The largest ticket import: the request as sent (the CSV inside its JSON body), 20 MB. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** Every other JSON body. */
export const BODY_MAX_BYTES = 64 * 1024;

/** "20 MB", "64 KB": a limit in words. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/** The words of a 413, the same on the server and in the browser's own check before sending. */
export function tooLargeMessage(what: string, size: number | null, maxBytes: number): string {
  return `${what} is ${size ? formatBytes(size) : "larger than the limit"}; the limit is ${formatBytes(maxBytes)}.`;
}
