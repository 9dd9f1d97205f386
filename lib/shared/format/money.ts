/** Money arrives in minor units (cents) of the event currency; shown with Intl.NumberFormat. */

const formats = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: "currency", currency });
    formats.set(key, f);
  }
  return f;
}

/** Digits after the decimal point of a currency (EUR 2, JPY 0, KWD 3). */
export function minorDigits(currency: string): number {
  return formatter(currency, "en-GB").resolvedOptions().maximumFractionDigits ?? 2;
}

/** 123456 EUR → "€1,234.56"; negative amounts keep their sign. */
export function formatMoney(minor: number, currency: string, locale = "en-GB"): string {
  return formatter(currency, locale).format(minor / 10 ** minorDigits(currency));
}

/** Major units as a plain number (chart axes, CSV): 123456 EUR → 1234.56. */
export function toMajor(minor: number, currency: string): number {
  return minor / 10 ** minorDigits(currency);
}

/** Minor units as a plain decimal string for CSV: 123456 EUR → "1234.56", -5 → "-0.05". */
export function decimalString(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  const unit = 10 ** digits;
  return `${sign}${Math.floor(abs / unit)}.${String(abs % unit).padStart(digits, "0")}`;
}

/**
 * A typed amount in major units ("12", "12.5", "12,50", "1,234.50", "1 234,5") as integer minor units
 * of the currency, or null when it is not one: more decimals than the currency has (EUR 2, JPY 0),
 * a negative amount unless `negative` is allowed, or anything else. Where both "." and "," appear,
 * the last is the decimal separator; a lone "," is decimal only if the currency has that many digits.
 */
export function parseAmount(
  text: string,
  currency: string,
  options: { negative?: boolean } = {},
): number | null {
  const digits = minorDigits(currency);
  let s = text.trim().replace(/[\s\u00a0\u202f']/g, "");
  const sign = s.startsWith("-") ? -1 : 1;
  if (sign < 0) {
    if (!options.negative) return null;
    s = s.slice(1);
  }
  if (/^[.,]|[.,]$/.test(s)) return null;
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  let decimalMark: "." | "," | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimalMark = lastDot > lastComma ? "." : ",";
  else if (lastDot >= 0) decimalMark = s.indexOf(".") === lastDot ? "." : null;
  else if (lastComma >= 0) {
    const after = s.length - lastComma - 1;
    decimalMark = s.indexOf(",") === lastComma && after > 0 && after <= digits ? "," : null;
  }
  const grouping = decimalMark === "," ? "." : ",";
  const [whole = "", frac = "", extra] = s
    .split(grouping)
    .join("")
    .split(decimalMark ?? "\u0000");
  if (extra !== undefined || !/^\d+$/.test(whole) || !/^\d*$/.test(frac) || frac.length > digits) return null;
  const minor = Number(whole) * 10 ** digits + Number(frac.padEnd(digits, "0") || "0");
  if (!Number.isSafeInteger(minor)) return null;
  return sign * minor || 0;
}
