import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { NightReport } from "@/lib/shared/api/reconciliation";
import { decimalString } from "@/lib/shared/format/money";
import { dateTime } from "@/lib/shared/format/time";
import type { Locale } from "@/lib/shared/i18n/locales";
import { translatorFor } from "@/lib/shared/i18n/messages";
import { csvLine } from "../http/respond";
import { nightReport } from "./night";

/**
 * The night as CSV, the same figures the screen shows: one line per figure,
 * `section,key,label,count,amount` (amount in major units of the event currency). Sums of the
 * breakdown sections equal their totals.
 */
export function nightCsv(report: NightReport, locale: Locale = "en"): string {
  const t = translatorFor(locale);
  const n = (key: string) => t(`csv.night.${key}` as "csv.night.sales");
  const currency = report.event?.currency ?? "EUR";
  const tz = report.event?.time_zone ?? "UTC";
  const money = (m: number) => decimalString(m, currency);
  const out: string[] = [
    csvLine(
      ["section", "key", "label", "count", "amount"].map((c) => t(`csv.column.${c}` as "csv.column.id")),
    ),
  ];
  const line = (section: string, key: string, label: string, count: number | null, amount: number | null) =>
    out.push(csvLine([section, key, label, count, amount === null ? null : money(amount)]));
  const day = report.day;
  const f = report.figures;
  if (!day || !f) return out.join("");
  line(
    "night",
    day.id,
    `${day.name} ${dateTime(day.starts_at, tz)} – ${dateTime(day.ends_at, tz)}`,
    null,
    null,
  );
  line("sales", "total", n("sales"), f.sales.count, f.sales.total);
  line("sales", "base", n("salesBase"), null, f.sales.total_base);
  line("sales", "tax", n("salesTax"), null, f.sales.total_tax);
  for (const r of f.sales_by_payment_method)
    line("sales_by_payment_method", r.payment_method, r.payment_method, r.count, r.total);
  for (const r of f.sales_by_device)
    line("sales_by_terminal", r.device_id, r.device_id || n("unknown"), r.count, r.total);
  for (const r of f.sales_by_tax) {
    line("sales_tax_base", `${r.tax_type}_${r.rate}`, `${r.tax_type} ${r.rate}%`, null, r.base);
    line("sales_tax_amount", `${r.tax_type}_${r.rate}`, `${r.tax_type} ${r.rate}%`, null, r.tax);
  }
  line("topups", "total", n("topups"), f.topups.count, f.topups.amount);
  for (const r of f.topups_by_payment_method)
    line("topups_by_payment_method", r.payment_method, r.payment_method, r.count, r.amount);
  line("withdrawals", "total", n("withdrawals"), f.withdrawals.count, f.withdrawals.amount);
  for (const r of f.withdrawals_by_payment_method)
    line("withdrawals_by_payment_method", r.payment_method, r.payment_method, r.count, r.amount);
  line("bonuses", "total", n("bonuses"), f.bonuses.count, f.bonuses.amount);
  line("transfers", "total", n("transfers"), f.transfers.count, f.transfers.amount);
  for (const e of f.expected)
    line(`expected_${e.payment_method}`, e.device_id, e.device_id || n("unknown"), null, e.expected);
  const c = report.checksum;
  if (c?.upstream) {
    line("upstream_summary", "sales", n("salesUpstream"), c.upstream.sales.count, c.upstream.sales.total);
    line("upstream_summary", "matched", c.matched ? n("matches") : n("differs"), null, null);
  }
  if (report.late) {
    line("late_arrivals", "total", n("late"), report.late.count, report.late.amount);
    for (const d of report.late.by_device)
      line("late_arrivals_by_terminal", d.device_id, d.device_id || n("unknown"), d.count, d.amount);
  }
  for (const s of report.signoffs)
    out.push(
      csvLine([
        "signoff",
        s.id,
        `${s.username} ${dateTime(s.signed_at, tz)} ${s.comment}`,
        s.snapshot.figures.sales.count,
        money(s.snapshot.figures.sales.total),
      ]),
    );
  return out.join("");
}

/** The night's CSV file: its name and its text. */
export async function nightExport(db: Queryable, dayId: string | null, locale: Locale) {
  const report = await nightReport(db, { dayId });
  return { fileName: `night-${report.day?.date ?? "none"}.csv`, body: nightCsv(report, locale) };
}
