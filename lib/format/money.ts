/**
 * Money of the staff tools: the one formatter is the live screens' (`lib/live/money.ts`,
 * Intl.NumberFormat in the event currency); this adds parsing of a typed amount.
 */
export { formatMoney } from "@/lib/live/money";

/** "12.5" / "12,50" / "12" → cents, or null when it is not an amount with at most two decimals. */
export function parseAmount(text: string): number | null {
  const t = text.trim().replace(",", ".");
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ""] = t.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}
