"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { inputClass, secondaryButtonClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { ErrorBox } from "@/components/ui/states";
import { useWrite } from "@/components/ui/use-endpoint";
import { endpoints } from "@/lib/shared/api/endpoints";
import type { NightReport } from "@/lib/shared/api/night";
import { parseAmount } from "@/lib/shared/format/money";
import { CASH } from "@/lib/shared/night-arithmetic";

/** One desk's float: an amount and a button (the amount is kept as typed until it is set). */
function FloatForm({
  dayId,
  deviceId,
  label,
  currency,
  onSet,
}: {
  dayId: string;
  deviceId: string | null;
  label: string;
  currency: string;
  onSet: () => void;
}) {
  const t = useTranslations("floats");
  const [desk, setDesk] = useState("");
  const [text, setText] = useState("");
  const amount = parseAmount(text, currency);
  const set = useWrite(endpoints.night.float, {
    onSuccess: () => {
      setText("");
      setDesk("");
      onSet();
    },
  });
  return (
    <form
      className="no-print flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (amount !== null) set.mutate({ body: { day_id: dayId, device_id: deviceId ?? desk, amount } });
      }}
    >
      {deviceId === null && (
        <label className="flex flex-col text-sm">
          {t("desk")}
          <input
            className={inputClass}
            value={desk}
            maxLength={100}
            onChange={(e) => setDesk(e.target.value)}
          />
        </label>
      )}
      <label className="flex flex-col text-sm">
        {label}
        <input
          className={`${inputClass} w-28 text-right`}
          inputMode="decimal"
          value={text}
          aria-invalid={text !== "" && amount === null}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <button type="submit" className={secondaryButtonClass} disabled={set.isPending || amount === null}>
        {t("set")}
      </button>
      <ErrorBox error={set.error} what={t("theFloat")} />
    </form>
  );
}

/**
 * The opening float of each cash desk (entered before or during the night; every change is kept
 * and audited): expected cash = float + cash top-ups − cash withdrawals + cash sales.
 */
export function FloatsPanel({
  report,
  canSet,
  money,
  at,
  desk,
  onSet,
}: {
  report: NightReport;
  canSet: boolean;
  money: (minor: number) => string;
  at: (iso: string) => string;
  desk: (deviceId: string) => string;
  onSet: () => void;
}) {
  const t = useTranslations("floats");
  const day = report.day!;
  const currency = report.event?.currency ?? "EUR";
  const desks = [
    ...new Set([
      ...(report.figures?.expected ?? [])
        .filter((e) => e.payment_method === CASH && e.device_id)
        .map((e) => e.device_id),
      ...report.floats.map((f) => f.device_id),
    ]),
  ].sort();
  return (
    <Panel title={t("title")} id="floats-title">
      <p className="mb-2 text-sm text-slate-700">{t("rule")}</p>
      {/* Open while the night is to come or running (when floats are handed out); folded after. */}
      <details open={!report.ended} className="group">
        <summary className="no-print mb-2 cursor-pointer text-sm font-medium" data-testid="floats-summary">
          {t("summary", {
            count: report.floats.length,
            total: money(report.floats.reduce((n, f) => n + f.amount, 0)),
          })}
        </summary>
        <DataTable
          caption={t("caption")}
          hiddenCaption
          empty={<p>{t("none")}</p>}
          columns={[
            t("desk"),
            numeric(t("float")),
            t("setBy"),
            ...(canSet ? [{ label: t("change"), hiddenLabel: true }] : []),
          ]}
          rows={desks.map((d) => {
            const f = report.floats.find((x) => x.device_id === d);
            return {
              key: d,
              cells: [
                desk(d),
                <span key="f" data-testid={`float-${d}`}>
                  {f ? money(f.amount) : t("noFloat")}
                </span>,
                f ? t("setAt", { who: f.username, time: at(f.set_at) }) : "—",
                ...(canSet
                  ? [
                      <FloatForm
                        key="form"
                        dayId={day.id}
                        deviceId={d}
                        label={t("floatAt", { desk: desk(d) })}
                        currency={currency}
                        onSet={onSet}
                      />,
                    ]
                  : []),
              ],
            };
          })}
        />
        {canSet && (
          <div className="mt-3">
            <p className="mb-1 text-sm font-medium">{t("otherDesk")}</p>
            <FloatForm dayId={day.id} deviceId={null} label={t("amount")} currency={currency} onSet={onSet} />
          </div>
        )}
      </details>
    </Panel>
  );
}
