import "server-only";
import type { Queryable } from "@/lib/db/db";
import type { NightReport, Signoff, Tolerance } from "@/lib/shared/api/night";
import { decimalString } from "@/lib/shared/format/money";
import { dateTime } from "@/lib/shared/format/time";
import type { Locale } from "@/lib/shared/i18n/locales";
import { translatorFor } from "@/lib/shared/i18n/messages";
import { reportLines } from "@/lib/shared/night-report";
import { csvLine } from "../http/respond";
import { nightReport } from "./night";

/**
 * The night as CSV, the same figures the screen shows: one line per figure,
 * `section,key,label,count,amount` (amount in major units of the event currency). Sums of the
 * breakdown sections equal their totals. The latest sign-off adds what was counted per desk and
 * method, its variance (both from its frozen snapshot) and the notes and coins counted.
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
  for (const fl of report.floats) line("float", fl.device_id, n("float"), null, fl.amount);
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
  const latest = report.signoffs[0];
  if (latest) countedCsv(latest, { line, n, money });
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

type Line = (
  section: string,
  key: string,
  label: string,
  count: number | null,
  amount: number | null,
) => void;

/**
 * What the latest sign-off counted, per desk and method (`counted_<method>`, empty amount when not
 * counted) and its variance (`variance_<method>`), keyed by desk; the notes and coins
 * (`counted_pieces`, key `desk:denomination`, count = pieces); its state.
 */
function countedCsv(
  s: Signoff,
  out: { line: Line; n: (key: string) => string; money: (m: number) => string },
) {
  const { line, n, money } = out;
  line("signoff_status", s.id, `${n("status")}: ${s.status}`, null, null);
  for (const l of reportLines(s)) {
    const desk = l.device_id || n("unknown");
    line(
      `counted_${l.payment_method}`,
      l.device_id,
      l.counted === null ? `${desk} (${n("notCounted")})` : desk,
      null,
      l.counted,
    );
    if (l.variance !== null)
      line(
        `variance_${l.payment_method}`,
        l.device_id,
        l.beyond ? `${desk} (${n("beyond")})` : desk,
        null,
        l.variance,
      );
    for (const [value, pieces] of Object.entries(l.denominations ?? {}))
      line(
        "counted_pieces",
        `${l.device_id}:${value}`,
        `${desk} ${money(Number(value))}`,
        pieces,
        Number(value) * pieces,
      );
  }
}

/** The night's CSV file: its name and its text. */
export async function nightExport(
  db: Queryable,
  dayId: string | null,
  locale: Locale,
  tolerance: Tolerance,
  now: Date,
) {
  const report = await nightReport(db, { dayId, tolerance, now });
  return { fileName: `night-${report.day?.date ?? "none"}.csv`, body: nightCsv(report, locale) };
}
