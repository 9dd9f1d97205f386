import "server-only";
import PDFDocument from "pdfkit";
import type { NightReportDocument } from "@/lib/shared/api/night";
import { intlLocale, type Locale } from "@/lib/shared/i18n/locales";
import { translatorFor } from "@/lib/shared/i18n/messages";
import {
  REPORT_COLUMNS,
  type ReportLine,
  type ReportTexts,
  reportFormat,
  reportTexts,
  type Translate,
} from "@/lib/shared/night-report";

/**
 * The night report of a sign-off as an A4 PDF (pdfkit, its standard Helvetica): the same sentences
 * and lines as the print view, from the frozen snapshot. The demo night's 36 lines fit two pages.
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 36;
const WIDTH = A4.width - 2 * MARGIN;
const BOTTOM = A4.height - MARGIN - 14; // the footer's line below
const RED = "#991b1b";
const INK = "#0f172a";
const GREY = "#475569";

/** The share of the width of each column of the lines table (the first two are text, left-aligned). */
const SHARES = [0.2, 0.08, 0.09, 0.1, 0.1, 0.1, 0.11, 0.11, 0.11];

// The standard fonts encode WinAnsi (Latin-1 and a few more): every other character is replaced,
// so a typed comment can never break the file.
const WIN_ANSI_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
export function winAnsi(text: string): string {
  return text
    .replace(/[\u202f\u2009\u2007]/g, "\u00a0")
    .replace(/\u2212/g, "-")
    .replace(/[^\n\u0020-\u007e\u00a0-\u00ff]/gu, (c) => (WIN_ANSI_EXTRA.includes(c) ? c : "?"));
}

type Doc = PDFKit.PDFDocument;

function clipToWidth(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let s = text;
  while (s.length > 1 && doc.widthOfString(`${s}…`) > width) s = s.slice(0, -1);
  return `${s}…`;
}

/** Writes paragraphs from the current position, starting a page when one would not fit. */
function paragraph(
  doc: Doc,
  text: string,
  options: { size?: number; bold?: boolean; color?: string; gap?: number } = {},
) {
  const size = options.size ?? 8.5;
  doc
    .font(options.bold ? "Helvetica-Bold" : "Helvetica")
    .fontSize(size)
    .fillColor(options.color ?? INK);
  const safe = winAnsi(text);
  if (doc.y + doc.heightOfString(safe, { width: WIDTH }) > BOTTOM) doc.addPage();
  doc.text(safe, MARGIN, doc.y, { width: WIDTH });
  doc.y += options.gap ?? 1.5;
}

function heading(doc: Doc, text: string) {
  if (doc.y + 40 > BOTTOM) doc.addPage();
  doc.y += 6;
  paragraph(doc, text, { size: 10, bold: true, gap: 2 });
}

function table(doc: Doc, x: ReportTexts, t: Translate, f: ReturnType<typeof reportFormat>) {
  const ROW = 10.5;
  let left = MARGIN;
  const cols = REPORT_COLUMNS.map((key, i) => {
    const col = { key, x: left, width: (SHARES[i] ?? 0.1) * WIDTH, right: i > 1 };
    left += col.width;
    return col;
  });
  const cell = (text: string, col: (typeof cols)[number], y: number) => {
    const s = clipToWidth(doc, winAnsi(text), col.width - 4);
    doc.text(s, col.x, y, { width: col.width - 4, align: col.right ? "right" : "left", lineBreak: false });
  };
  const header = () => {
    doc.font("Helvetica-Bold").fontSize(7.5).fillColor(INK);
    const y = doc.y;
    for (const c of cols) cell(t(`nightReport.columns.${c.key}`), c, y);
    doc
      .moveTo(MARGIN, y + ROW - 1.5)
      .lineTo(MARGIN + WIDTH, y + ROW - 1.5)
      .lineWidth(0.5)
      .strokeColor(GREY)
      .stroke();
    doc.y = y + ROW;
  };
  const values = (l: ReportLine): Record<string, string> => ({
    desk: f.desk(l.device_id),
    method: f.value(l.payment_method),
    float: l.payment_method === "cash" ? f.money(l.float) : "",
    topups: f.money(l.topups),
    withdrawals: f.money(l.withdrawals),
    sales: f.money(l.sales),
    expected: f.money(l.expected),
    counted: l.counted === null ? t("nightReport.notCounted") : f.money(l.counted),
    variance:
      l.variance === null ? "—" : `${l.variance > 0 ? "+" : ""}${f.money(l.variance)}${l.beyond ? " !" : ""}`,
  });
  header();
  x.lines.forEach((l, i) => {
    if (doc.y + ROW > BOTTOM) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    if (i % 2 === 1) doc.rect(MARGIN, y - 1.5, WIDTH, ROW).fill("#f1f5f9");
    const v = values(l);
    for (const c of cols) {
      const red = l.beyond && (c.key === "variance" || c.key === "counted");
      doc
        .font(red ? "Helvetica-Bold" : "Helvetica")
        .fontSize(7.5)
        .fillColor(red ? RED : l.counted === null && c.key === "counted" ? GREY : INK);
      cell(v[c.key] ?? "", c, y);
    }
    doc.y = y + ROW;
  });
  const y = doc.y + 1;
  doc
    .moveTo(MARGIN, y - 1.5)
    .lineTo(MARGIN + WIDTH, y - 1.5)
    .lineWidth(0.5)
    .strokeColor(GREY)
    .stroke();
  doc.font("Helvetica-Bold").fontSize(7.5).fillColor(INK);
  const totals: Record<string, string> = {
    desk: t("nightReport.total"),
    float: f.money(x.totals.float),
    expected: f.money(x.totals.expected),
    counted: f.money(x.totals.counted),
    variance: `${x.totals.variance > 0 ? "+" : ""}${f.money(x.totals.variance)}${x.totals.beyond ? " !" : ""}`,
  };
  for (const c of cols) {
    doc.fillColor(c.key === "variance" && x.totals.beyond ? RED : INK);
    cell(totals[c.key] ?? "", c, y);
  }
  doc.y = y + ROW + 2;
  paragraph(doc, `${x.countedOf} · ${t("nightReport.beyondMark")}`, { size: 7, color: GREY });
}

function signatures(doc: Doc, t: Translate, who: { signer: string; approver: string | null }) {
  if (doc.y + 60 > BOTTOM) doc.addPage();
  doc.y += 24;
  const y = doc.y;
  const half = (WIDTH - 24) / 2;
  [
    [t("nightReport.signatureSupervisor"), who.signer],
    [t("nightReport.signatureManager"), who.approver ?? ""],
  ].forEach(([label, name], i) => {
    const x = MARGIN + i * (half + 24);
    doc
      .moveTo(x, y + 18)
      .lineTo(x + half, y + 18)
      .lineWidth(0.7)
      .strokeColor(INK)
      .stroke();
    doc.font("Helvetica").fontSize(7.5).fillColor(GREY);
    doc.text(winAnsi(`${label}${name ? `: ${name}` : ""}`), x, y + 21, { width: half, lineBreak: false });
  });
  doc.y = y + 34;
}

/** Page numbers and the snapshot's note at the foot of every page. */
function footers(doc: Doc, t: Translate, note: string) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    doc.font("Helvetica").fontSize(7).fillColor(GREY);
    const page = t("nightReport.page", { page: i + 1, pages: range.count });
    doc.text(winAnsi(`${note} · ${page}`), MARGIN, A4.height - MARGIN - 6, {
      width: WIDTH,
      lineBreak: false,
    });
  }
}

export function nightReportPdf(report: NightReportDocument, locale: Locale): Promise<Uint8Array> {
  const t = translatorFor(locale) as unknown as Translate;
  const f = reportFormat(report, intlLocale(locale), t);
  const x = reportTexts(report, t, f);
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    bufferPages: true,
    info: { Title: winAnsi(x.title), Author: "Event operations console", Subject: winAnsi(x.subtitle) },
  });
  const chunks: Uint8Array[] = [];
  doc.on("data", (c: Uint8Array) => chunks.push(c));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  paragraph(doc, x.title, { size: 15, bold: true, gap: 2 });
  paragraph(doc, x.subtitle, { color: GREY, gap: 6 });
  paragraph(doc, x.status, {
    size: 11,
    bold: true,
    color: report.signoff.status === "final" ? INK : RED,
    gap: 3,
  });
  for (const s of [
    x.signed,
    x.approved,
    x.comment,
    x.checksum,
    x.completeness,
    x.tolerance,
    x.blind,
    x.figures,
  ])
    if (s) paragraph(doc, s);
  heading(doc, t("nightReport.linesTitle"));
  table(doc, x, t, f);
  heading(doc, t("nightReport.denominationsTitle"));
  for (const s of x.denominations.length ? x.denominations : [t("nightReport.noDenominations")])
    paragraph(doc, s);
  heading(doc, t("nightReport.waiversTitle"));
  for (const s of x.waivers.length ? x.waivers : [t("nightReport.noWaivers")]) paragraph(doc, s);
  heading(doc, t("nightReport.lateTitle"));
  for (const s of [x.late.summary, ...x.late.lines]) paragraph(doc, s);
  heading(doc, x.adjustments.title);
  for (const s of x.adjustments.lines.length ? x.adjustments.lines : [t("nightReport.noAdjustments")])
    paragraph(doc, s);
  signatures(doc, t, {
    signer: report.signoff.username,
    approver: report.signoff.approval?.username ?? null,
  });
  footers(doc, t, x.footer);
  doc.end();
  return done;
}
