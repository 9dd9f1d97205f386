/**
 * What a row's values are on both stores: `timestamptz` an ISO 8601 UTC string with milliseconds
 * ("2026-07-01T10:00:00.000Z"), `jsonb` the parsed value, `int8`/`numeric` a number. These helpers
 * turn such values into the shapes answers carry, so nobody re-declares them.
 */

const POSTGRES_TIMESTAMP =
  /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?|Z)?$/;

/**
 * A timestamp as PostgreSQL prints it (`2026-07-01 12:00:00.123456+02`, in the session's zone) as an
 * ISO 8601 UTC string with milliseconds. A value without an offset (`timestamp`) is read as UTC.
 * Infinity and anything unexpected are returned unchanged.
 */
export function isoFromPostgres(text: string): string {
  const m = POSTGRES_TIMESTAMP.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi, s, frac = "", sign, oh = "0", om = "0", os = "0"] = m;
  const ms = Number(frac.padEnd(3, "0").slice(0, 3));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const offset = sign
    ? (sign === "-" ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60 + Number(os)) * 1000
    : 0;
  const date = new Date(utc - offset);
  // Years before 100 would be mapped to 19xx by Date.UTC; none of ours are, but stay exact.
  if (Number(y) < 100) date.setUTCFullYear(Number(y));
  return date.toISOString();
}

/** An instant as an ISO string (strings from the store pass through; Dates are converted). */
export function iso(value: string | Date): string {
  return typeof value === "string" ? value : value.toISOString();
}

/** `iso` that keeps null (and undefined) as null. */
export function isoOrNull(value: string | Date | null | undefined): string | null {
  return value == null ? null : iso(value);
}

/** A number column that may be null (count, ms). */
export function numOrNull(value: unknown): number | null {
  return value == null ? null : Number(value);
}
