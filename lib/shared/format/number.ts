/** Counts on screen (sales, scans, quantities): grouped by the locale, the same everywhere. */

const formats = new Map<string, Intl.NumberFormat>();

/** 1234567 → "1,234,567" (en-GB); `locale` picks the grouping ("de-DE": "1.234.567"). */
export function formatCount(n: number, locale = "en-GB"): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    formats.set(locale, format);
  }
  return format.format(n);
}
