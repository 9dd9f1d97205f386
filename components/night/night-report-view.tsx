"use client";

import { useTranslations } from "next-intl";
import { joinClasses, primaryButtonClass, textLinkClass } from "@/components/ui/class-names";
import { useIntlLocale } from "@/components/ui/locale-format";
import { ScrollRegion } from "@/components/ui/scroll-region";
import type { NightReportDocument } from "@/lib/shared/api/night";
import {
  REPORT_COLUMNS,
  type ReportLine,
  reportFormat,
  reportTexts,
  type Translate,
} from "@/lib/shared/night-report";
import { pdfHref } from "./signoff-history";

// Printed on A4: the console's navigation and tools hidden, the report's own type sizes.
const PRINT_STYLE = `@page { size: A4; margin: 12mm; }
@media print { nav, header, .no-print { display: none !important; } body { background: white; }
  main > section { padding: 0 !important; } main h1 { display: none; } .report { font-size: 9pt; }
  .report table { font-size: 7.5pt; } .report section { break-inside: avoid; } }`;

function Section({ title, lines, testId }: { title: string; lines: string[]; testId?: string }) {
  return (
    <section className="mt-4" data-testid={testId}>
      <h3 className="font-semibold">{title}</h3>
      <ul className="list-disc pl-5">
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </section>
  );
}

/** The night report of one sign-off, as printed: every figure from its frozen snapshot. */
export function NightReportView({ doc }: { doc: NightReportDocument }) {
  const root = useTranslations();
  const t = useTranslations("nightReport");
  const tr = root as unknown as Translate;
  const f = reportFormat(doc, useIntlLocale(), tr);
  const x = reportTexts(doc, tr, f);
  const money = (n: number | null) => (n === null ? t("notCounted") : f.money(n));
  const signed = (n: number | null) => (n === null ? "—" : `${n > 0 ? "+" : ""}${f.money(n)}`);
  const row = (l: ReportLine) => (
    <tr
      key={`${l.device_id}|${l.payment_method}`}
      className={joinClasses("border-b border-slate-100", l.beyond && "bg-red-50 font-semibold text-red-800")}
      data-testid={`report-line-${l.device_id}|${l.payment_method}`}
    >
      <td className="pr-2">{f.desk(l.device_id)}</td>
      <td className="pr-2">{f.value(l.payment_method)}</td>
      <td className="pr-2 text-right">{l.payment_method === "cash" ? f.money(l.float) : ""}</td>
      <td className="pr-2 text-right">{f.money(l.topups)}</td>
      <td className="pr-2 text-right">{f.money(l.withdrawals)}</td>
      <td className="pr-2 text-right">{f.money(l.sales)}</td>
      <td className="pr-2 text-right">{f.money(l.expected)}</td>
      <td className={joinClasses("pr-2 text-right", l.counted === null && "text-slate-500 italic")}>
        {money(l.counted)}
      </td>
      <td className="text-right">
        {signed(l.variance)}
        {l.beyond && ` (${t("beyond")})`}
      </td>
    </tr>
  );
  return (
    <article
      className="report max-w-5xl rounded border border-slate-200 bg-white p-6 text-sm"
      data-testid="night-report"
    >
      <style>{PRINT_STYLE}</style>
      <div className="no-print mb-4 flex flex-wrap gap-3">
        <button type="button" className={primaryButtonClass} onClick={() => window.print()}>
          {t("print")}
        </button>
        <a className={textLinkClass} href={pdfHref(doc.signoff.id)} download>
          {t("pdf")}
        </a>
        <a className={textLinkClass} href={`/reconciliation?day_id=${encodeURIComponent(doc.day.id)}`}>
          {t("back")}
        </a>
      </div>
      <h2 className="text-lg font-semibold">{x.title}</h2>
      <p className="text-slate-700">{x.subtitle}</p>
      <p
        className={joinClasses(
          "mt-3 inline-block rounded border px-2 py-1 font-semibold",
          doc.signoff.status === "final" ? "border-green-300 bg-green-50" : "border-amber-300 bg-amber-50",
        )}
        data-testid="report-status"
      >
        {x.status}
      </p>
      <ul className="mt-2 space-y-0.5" data-testid="report-facts">
        {[x.signed, x.approved, x.comment, x.checksum, x.completeness, x.tolerance, x.blind, x.figures]
          .filter((s): s is string => s !== null)
          .map((s) => (
            <li key={s}>{s}</li>
          ))}
      </ul>
      <section className="mt-4">
        <h3 className="font-semibold">
          {t("linesTitle")} · {x.countedOf}
        </h3>
        <ScrollRegion label={t("linesTitle")}>
          <table className="w-full text-left text-xs tabular-nums">
            <thead>
              <tr className="border-b">
                {REPORT_COLUMNS.map((c, i) => (
                  <th key={c} scope="col" className={joinClasses("pr-2", i > 1 && "text-right")}>
                    {t(`columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{x.lines.map(row)}</tbody>
            <tfoot>
              <tr className="border-t font-semibold" data-testid="report-totals">
                <th scope="row" colSpan={2} className="text-left">
                  {t("total")}
                </th>
                <td className="pr-2 text-right">{f.money(x.totals.float)}</td>
                <td colSpan={3} />
                <td className="pr-2 text-right">{f.money(x.totals.expected)}</td>
                <td className="pr-2 text-right">{f.money(x.totals.counted)}</td>
                <td className={joinClasses("text-right", x.totals.beyond && "text-red-800")}>
                  {signed(x.totals.variance)}
                </td>
              </tr>
            </tfoot>
          </table>
        </ScrollRegion>
      </section>
      <Section
        title={t("denominationsTitle")}
        lines={x.denominations.length ? x.denominations : [t("noDenominations")]}
        testId="report-denominations"
      />
      <Section title={t("waiversTitle")} lines={x.waivers.length ? x.waivers : [t("noWaivers")]} />
      <Section title={t("lateTitle")} lines={[x.late.summary, ...x.late.lines]} />
      <Section
        title={x.adjustments.title}
        lines={x.adjustments.lines.length ? x.adjustments.lines : [t("noAdjustments")]}
        testId="report-adjustments"
      />
      <section className="mt-8 grid grid-cols-2 gap-8" data-testid="report-signatures">
        {[
          `${t("signatureSupervisor")}: ${doc.signoff.username}`,
          `${t("signatureManager")}${doc.signoff.approval ? `: ${doc.signoff.approval.username}` : ""}`,
        ].map((who) => (
          <div key={who}>
            <div className="h-12 border-b border-slate-500" />
            <p className="mt-1 text-xs">{who}</p>
          </div>
        ))}
      </section>
      <p className="mt-6 text-xs text-slate-500">{x.footer}</p>
    </article>
  );
}
