import type { NightReportDocument, Signoff } from "./api/night";
import type { DenominationCounts } from "./denominations";
import { formatMoney } from "./format/money";
import { formatCount } from "./format/number";
import { dateTime } from "./format/time";
import { beyondLine, beyondNight, type CountTotals, countTotals } from "./night-close";

/**
 * The lines of a night report, from a sign-off's frozen snapshot: per desk and method what was
 * expected (float included) and counted, and the variance; the same for the print view and the PDF.
 */

/** The columns of the lines table, in order (their words: `nightReport.columns.<key>`). */
export const REPORT_COLUMNS = [
  "desk",
  "method",
  "float",
  "topups",
  "withdrawals",
  "sales",
  "expected",
  "counted",
  "variance",
] as const;

export interface ReportLine {
  device_id: string;
  payment_method: string;
  float: number;
  topups: number;
  withdrawals: number;
  sales: number;
  expected: number;
  /** null: not counted. */
  counted: number | null;
  variance: number | null;
  /** The variance is beyond the line tolerance the sign-off was judged by. */
  beyond: boolean;
  denominations: DenominationCounts | null;
}

export function reportLines(signoff: Signoff): ReportLine[] {
  const tolerance = signoff.snapshot.tolerance;
  const countOf = (device: string, method: string) =>
    signoff.counted.find((c) => c.device_id === device && c.payment_method === method);
  const lines: ReportLine[] = signoff.snapshot.figures.expected.map((e) => {
    const c = countOf(e.device_id, e.payment_method);
    const variance = c ? c.counted - e.expected : null;
    return {
      device_id: e.device_id,
      payment_method: e.payment_method,
      float: e.float ?? 0,
      topups: e.topups,
      withdrawals: e.withdrawals,
      sales: e.sales,
      expected: e.expected,
      counted: c?.counted ?? null,
      variance,
      beyond: variance !== null && tolerance !== undefined && beyondLine(variance, tolerance),
      denominations: c?.denominations ?? null,
    };
  });
  // A count of a desk the snapshot did not expect (sign-offs made before lines were checked).
  for (const c of signoff.counted)
    if (!lines.some((l) => l.device_id === c.device_id && l.payment_method === c.payment_method))
      lines.push({
        device_id: c.device_id,
        payment_method: c.payment_method,
        float: 0,
        topups: 0,
        withdrawals: 0,
        sales: 0,
        expected: c.expected,
        counted: c.counted,
        variance: c.variance,
        beyond: tolerance !== undefined && beyondLine(c.variance, tolerance),
        denominations: c.denominations ?? null,
      });
  return lines;
}

export interface ReportTotals extends CountTotals {
  float: number;
  /** The night's variance is beyond the night tolerance. */
  beyond: boolean;
}

export function reportTotals(doc: Pick<NightReportDocument, "signoff">, lines: ReportLine[]): ReportTotals {
  const totals = countTotals(lines);
  const tolerance = doc.signoff.snapshot.tolerance;
  return {
    ...totals,
    float: lines.reduce((n, l) => n + l.float, 0),
    beyond: tolerance !== undefined && beyondNight(totals.variance, tolerance),
  };
}

/** The terminals waived in the night when it was signed: who, when, why. */
export function reportWaivers(signoff: Signoff) {
  return (signoff.snapshot.completeness?.terminals ?? []).flatMap((t) =>
    t.waiver ? [{ device_id: t.device_id, ...t.waiver }] : [],
  );
}

/** The terminals the night still waited for when it was signed (provisional). */
export function reportPending(signoff: Signoff) {
  return (signoff.snapshot.completeness?.terminals ?? []).filter((t) => t.pending && !t.waiver);
}

/** A translator over the whole message tree (useTranslations() or translatorFor(locale)). */
export type Translate = {
  (key: string, values?: Record<string, string | number>): string;
  has(key: string): boolean;
};

/** How a report writes money, counts, instants, data values and desks, in one language. */
export interface ReportFormat {
  money: (minor: number) => string;
  count: (n: number) => string;
  at: (iso: string) => string;
  value: (v: string) => string;
  /** A desk or terminal; records without one are named in words. */
  desk: (deviceId: string) => string;
}

export function reportFormat(
  doc: Pick<NightReportDocument, "event">,
  intlTag: string,
  t: Translate,
): ReportFormat {
  return {
    money: (minor) => formatMoney(minor, doc.event.currency, intlTag),
    count: (n) => formatCount(n, intlTag),
    at: (iso) => dateTime(iso, doc.event.time_zone, intlTag),
    value: (v) => (t.has(`value.${v}`) ? t(`value.${v}`) : v.replaceAll("_", " ")),
    desk: (id) => id || t("night.noTerminal"),
  };
}

const MOST_TERMINALS = 8;

/** Per terminal, the first few by count and one line for the rest. */
function terminalLines(
  rows: { device_id: string; count: number; amount: number }[],
  t: Translate,
  f: ReportFormat,
): string[] {
  const shown = rows.slice(0, MOST_TERMINALS);
  const rest = rows.slice(MOST_TERMINALS);
  const lines = shown.map((r) =>
    t("nightReport.terminalLine", {
      device: f.desk(r.device_id),
      count: f.count(r.count),
      amount: f.money(r.amount),
    }),
  );
  if (rest.length > 0)
    lines.push(
      t("nightReport.more", {
        count: rest.length,
        amount: f.money(rest.reduce((n, r) => n + r.amount, 0)),
      }),
    );
  return lines;
}

/** "2 × 50.00, 3 × 20.00" of one counted line. */
export function denominationText(counts: DenominationCounts, f: ReportFormat): string {
  return Object.entries(counts)
    .filter(([, pieces]) => pieces > 0)
    .sort((a, b) => Number(b[0]) - Number(a[0]))
    .map(([value, pieces]) => `${f.count(pieces)} × ${f.money(Number(value))}`)
    .join(", ");
}

function checksumText(s: Signoff, t: Translate, f: ReportFormat): string {
  const c = s.snapshot.checksum;
  if (c.matched === true)
    return t("nightReport.checksumMatched", { time: c.checked_at ? f.at(c.checked_at) : "—" });
  if (c.matched === null) return t("nightReport.checksumUnchecked");
  return t("nightReport.checksumDiffered", {
    count: f.count(c.difference?.sales_count ?? 0),
    sales: f.money(c.difference?.sales_total ?? 0),
    topups: f.money(c.difference?.topups_amount ?? 0),
    withdrawals: f.money(c.difference?.withdrawals_amount ?? 0),
  });
}

/** Every sentence of a night report, in one language: the print view and the PDF show the same. */
export function reportTexts(doc: NightReportDocument, t: Translate, f: ReportFormat) {
  const s = doc.signoff;
  const lines = reportLines(s);
  const totals = reportTotals(doc, lines);
  const tolerance = s.snapshot.tolerance;
  const figures = s.snapshot.figures;
  const pending = reportPending(s);
  return {
    title: t("nightReport.title", { night: doc.day.name }),
    subtitle: t("nightReport.subtitle", {
      event: doc.event.name,
      start: f.at(doc.day.starts_at),
      end: f.at(doc.day.ends_at),
      timeZone: doc.event.time_zone,
      currency: doc.event.currency,
    }),
    status: t(`nightReport.status.${s.status}`),
    signed: t("nightReport.signedBy", { who: s.username, time: f.at(s.signed_at), id: s.id }),
    approved: s.approval
      ? t("nightReport.approvedBy", { who: s.approval.username, time: f.at(s.approval.approved_at) }) +
        (s.approval.comment ? ` ${t("nightReport.approvalComment", { comment: s.approval.comment })}` : "")
      : s.needs_approval
        ? t("nightReport.notApproved")
        : null,
    comment: s.comment ? t("nightReport.comment", { comment: s.comment }) : t("nightReport.noComment"),
    checksum: checksumText(s, t, f),
    completeness: !s.snapshot.completeness
      ? t("nightReport.completenessUnknown")
      : pending.length > 0
        ? t("nightReport.provisional", { terminals: pending.map((p) => f.desk(p.device_id)).join(", ") })
        : t("nightReport.complete"),
    tolerance: tolerance
      ? t("nightReport.tolerance", { line: f.money(tolerance.line), night: f.money(tolerance.night) })
      : t("nightReport.noTolerance"),
    blind: s.snapshot.blind ? t("nightReport.blind") : null,
    countedOf: t("nightReport.countedOf", { counted: totals.counted_lines, lines: totals.lines }),
    figures: t("nightReport.figures", {
      count: f.count(figures.sales.count),
      total: f.money(figures.sales.total),
      topups: f.money(figures.topups.amount),
      withdrawals: f.money(figures.withdrawals.amount),
      bonuses: f.money(figures.bonuses.amount),
    }),
    denominations: lines.flatMap((l) =>
      l.denominations
        ? [
            t("nightReport.denominationLine", {
              desk: f.desk(l.device_id),
              pieces: denominationText(l.denominations, f),
              total: f.money(l.counted ?? 0),
            }),
          ]
        : [],
    ),
    waivers: reportWaivers(s).map((w) =>
      t("nightReport.waiver", {
        device: f.desk(w.device_id),
        who: w.username,
        time: f.at(w.waived_at),
        reason: w.reason,
      }),
    ),
    late: {
      summary: t("nightReport.late", {
        count: f.count(s.snapshot.late.count),
        amount: f.money(s.snapshot.late.amount),
      }),
      lines: terminalLines(s.snapshot.late.by_device, t, f),
    },
    adjustments: {
      title: t("nightReport.adjustmentsTitle", { time: f.at(doc.generated_at) }),
      lines: terminalLines(doc.adjustments, t, f),
    },
    footer: t("nightReport.footer", { id: s.id, time: f.at(doc.generated_at) }),
    lines,
    totals,
  };
}
export type ReportTexts = ReturnType<typeof reportTexts>;
