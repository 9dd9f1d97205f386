/** What `t` needs to be: a translator over the whole message tree (useTranslations() or translatorFor). */
type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * A drift line's words, from its key ("sales.method.card", "expected.<desk>.<method>": see
 * figureValues in lib/shared/night-arithmetic.ts); the label the line carries is the English
 * fallback for a key this does not know.
 */
export function driftLabel(
  t: Translate,
  value: (v: string) => string,
  { key, label }: { key: string; label: string },
): string {
  const [group = "", kind = "", ...rest] = key.split(".");
  const tail = rest.join(".");
  if (group === "expected") {
    const parts = [kind, ...rest];
    const method = parts.pop() ?? "";
    return t("drift.expected", { method: value(method), device: parts.join(".") || t("drift.unknownDesk") });
  }
  if (group === "sales" && kind === "tax" && rest.length > 0)
    return t("drift.taxBase", { tax: rest[0] ?? "", rate: rest.slice(1).join(".") });
  if (group === "sales" && kind === "method") return t("drift.salesBy", { method: value(tail) });
  if (group === "sales" && kind === "device")
    return t("drift.salesAt", { device: tail || t("drift.unknownTerminal") });
  if (group === "topups" && kind === "method") return t("drift.topupsBy", { method: value(tail) });
  if (group === "withdrawals" && kind === "method") return t("drift.withdrawalsBy", { method: value(tail) });
  const plain: Record<string, string> = {
    "sales.count": "drift.salesCount",
    "sales.total": "drift.salesTotal",
    "sales.base": "drift.salesBase",
    "sales.tax": "drift.salesTax",
    "topups.amount": "drift.topups",
    "withdrawals.amount": "drift.withdrawals",
    "bonuses.amount": "drift.bonuses",
    "transfers.amount": "drift.transfers",
  };
  const name = plain[key];
  return name ? t(name) : label;
}
