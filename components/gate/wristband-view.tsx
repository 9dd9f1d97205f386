"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { textLinkClass } from "@/components/ui/class-names";
import { CursorPagerNav, useCursorPager } from "@/components/ui/cursor-pager";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Field, Fields } from "@/components/ui/fields";
import { useIntlLocale, useValueText } from "@/components/ui/locale-format";
import { Panel } from "@/components/ui/panel";
import { SafeText } from "@/components/ui/safe-text";
import { Empty, ErrorBox, Loading } from "@/components/ui/states";
import { useEndpoint } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { WristbandView as WristbandAnswer } from "@/lib/shared/api/staff";
import { escapeBidi } from "@/lib/shared/format/bidi";
import { formatMoney } from "@/lib/shared/format/money";
import { dateTime } from "@/lib/shared/format/time";
import { wristbandVerdict } from "@/lib/shared/gate-verdict";
import { StatusBadge } from "./status-badge";
import { GateZonePicker, useGateContext, VerdictPanel } from "./verdict-view";
import { BalanceFields, useWristband } from "./wristband-query";

export function WristbandView({ code }: { code: string }) {
  const t = useTranslations("wristband");
  const query = useWristband(code);
  if (query.isPending) return <Loading what={t("loading")} />;
  if (query.isError) return <ErrorBox error={query.error} />;
  return <WristbandScreen view={query.data} />;
}

/** The wristband with its verdict for today first, then its balances, ticket, zones, sales, top-ups. */
function WristbandScreen({ view }: { view: WristbandAnswer }) {
  const t = useTranslations("wristband");
  const value = useValueText();
  const locale = useIntlLocale();
  const gate = useGateContext(view.gate);
  const { wristband: w, currency, timeZone, topups } = view;
  const verdict = wristbandVerdict(w, gate);
  const money = (c: number) => formatMoney(c, currency, locale);
  const dayName = (id: string) => view.gate.days.find((d) => d.id === id)?.name ?? id;
  return (
    <div className="space-y-4">
      <VerdictPanel verdict={verdict} timeZone={timeZone} />
      <GateZonePicker zones={view.gate.zones} zone={gate.gateZone} onChange={gate.chooseZone} />
      <Panel title={t("title", { nfc: escapeBidi(w.nfc) })}>
        <Fields>
          <Field label={t("status")}>
            <StatusBadge status={w.status} />
          </Field>
          <BalanceFields wristband={w} money={money} />
          <Field label={t("uhf")}>
            <SafeText text={w.uhf ?? "—"} />
          </Field>
          <Field label={t("attendee")}>
            {w.attendee.anonymous ? t("anonymous") : <SafeText text={w.attendee.name ?? "—"} />}
          </Field>
          <Field label={t("ticket")}>
            {w.ticket ? (
              <>
                <Link className={textLinkClass} href={`/tickets/${encodeURIComponent(w.ticket.code)}`}>
                  <SafeText text={w.ticket.code} />
                </Link>{" "}
                (<SafeText text={w.ticket.ticket_type} />)
              </>
            ) : (
              t("none")
            )}
          </Field>
          <Field label={t("allowedZones")}>
            {w.allowed_zones.length ? (
              <SafeText text={w.allowed_zones.map((z) => z.name).join(", ")} />
            ) : (
              t("none")
            )}
          </Field>
          <Field label={t("validDays")}>
            <SafeText text={w.valid_days.map(dayName).join(", ") || "—"} />
          </Field>
        </Fields>
      </Panel>
      <WristbandSales code={w.nfc} money={money} timeZone={timeZone} locale={locale} />
      <Panel title={t("topups")}>
        <DataTable
          caption={t("topupsCaption")}
          hiddenCaption
          empty={<Empty plain>{t("noTopups")}</Empty>}
          columns={[
            t("colWhen"),
            t("colDirection"),
            t("colNature"),
            t("colMethod"),
            t("colStatus"),
            numeric(t("colAmount")),
            numeric(t("colBalanceAfter")),
          ]}
          rows={topups.map((topup) => ({
            key: topup.id,
            cells: [
              dateTime(topup.occurred_at, timeZone, locale),
              value(topup.direction),
              value(topup.nature),
              value(topup.payment_method),
              value(topup.status),
              money(topup.amount),
              money(topup.new_balance),
            ],
          }))}
        />
      </Panel>
    </div>
  );
}

/** The wristband's sales, read live page by page (newest first), each with its items and taxes. */
function WristbandSales({
  code,
  money,
  timeZone,
  locale,
}: {
  code: string;
  money: (minor: number) => string;
  timeZone: string;
  locale: string;
}) {
  const t = useTranslations("wristband");
  const value = useValueText();
  const pager = useCursorPager();
  const query = useEndpoint(endpoints.gate.wristbandSales, {
    params: { code },
    query: { starting_after: pager.cursor ?? undefined },
  });
  const page = query.data;
  return (
    <Panel title={t("sales")}>
      {query.isPending && <Loading what={t("loadingSales")} />}
      {query.isError && <ErrorBox error={query.error} />}
      {page && (
        <>
          {page.data.length === 0 && <Empty plain>{t("noSales")}</Empty>}
          <ul className="space-y-2">
            {page.data.map((s) => (
              <li key={s.id} className="rounded border border-slate-100 p-2 text-sm">
                <div className="flex flex-wrap justify-between gap-2">
                  <span>
                    {dateTime(s.occurred_at, timeZone, locale)} · {value(s.type)} · {value(s.payment_method)}{" "}
                    · {value(s.status)}
                  </span>
                  <strong>{money(s.total)}</strong>
                </div>
                <ul className="ml-4 list-disc text-slate-700">
                  {s.items.map((item, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: items have no id of their own
                    <li key={i}>
                      {item.quantity} × <SafeText text={item.name} /> ({money(item.unit_price)})
                      {item.included_quantity > 0 && t("included", { count: item.included_quantity })} ={" "}
                      {money(item.charged_amount)}
                    </li>
                  ))}
                </ul>
                <p className="text-xs text-slate-600">
                  {t("baseTaxes", {
                    base: money(s.total_base),
                    taxes:
                      s.tax_breakdown
                        .map((x) => `${escapeBidi(x.tax_type)} ${x.rate}% ${money(x.amount)}`)
                        .join(", ") || t("noTaxes"),
                  })}
                </p>
              </li>
            ))}
          </ul>
          <CursorPagerNav
            pager={pager}
            next={page.has_more ? page.next_cursor : null}
            label={t("pagesLabel")}
            backLabel={t("previousSales")}
            forwardLabel={t("moreSales")}
          />
        </>
      )}
    </Panel>
  );
}
