"use client";

import { useTranslations } from "next-intl";
import { useIntlLocale } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { Stat } from "@/components/ui/stat";
import type { SalesForecast } from "@/lib/shared/api/sales";

/** A change in percent with its sign, in the reader's conventions ("+12.5 %", "−3,1 %"). */
const percent = (n: number, locale: string) =>
  `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1, signDisplay: "exceptZero" }).format(n)} %`;

/**
 * Tonight's forecast (issue 13): the projected sales at close with its range, today against
 * yesterday at this hour, and how far the same method was from yesterday's close. Without a
 * figure, why there is none.
 */
export function ForecastPanel({
  forecast: f,
  money,
}: {
  forecast: SalesForecast;
  money: (minor: number) => string;
}) {
  const t = useTranslations("forecast");
  const locale = useIntlLocale();
  const signed = (n: number) => percent(n, locale);
  return (
    <Panel id="forecast-heading" title={t("title")}>
      {f.projected_total === null ? (
        <p data-testid="forecast-none">{t(`none.${f.reason ?? "no_history"}`)}</p>
      ) : (
        <>
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <Stat
              label={t("projected")}
              value={money(f.projected_total)}
              hint={t("range", {
                low: money(f.low ?? f.projected_total),
                high: money(f.high ?? f.projected_total),
              })}
              testId="forecast-total"
            />
            <Stat
              label={t("vsYesterday")}
              value={f.vs_yesterday_pct === null ? "—" : signed(f.vs_yesterday_pct)}
              testId="forecast-vs-yesterday"
            />
            <Stat
              label={t("error")}
              value={f.backtest ? signed(f.backtest.error_pct) : "—"}
              hint={
                f.backtest
                  ? t("errorHint", {
                      name: f.backtest.name,
                      predicted: money(f.backtest.predicted),
                      actual: money(f.backtest.actual),
                    })
                  : t("noBacktest")
              }
              testId="forecast-error"
            />
          </dl>
          <p className="mt-2 text-sm text-slate-600">{t("basis", { days: f.basis_days })}</p>
        </>
      )}
    </Panel>
  );
}
