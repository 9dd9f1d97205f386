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
