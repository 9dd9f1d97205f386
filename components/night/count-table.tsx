"use client";

import { useTranslations } from "next-intl";
import { inputClass, joinClasses, secondaryButtonClass } from "@/components/ui/class-names";
import { DataTable, numeric } from "@/components/ui/data-table";
import { useValueText } from "@/components/ui/locale-format";
import { denominationsOf } from "@/lib/shared/denominations";
import type { CountLineState, NightCount } from "./use-night-count";

type Money = (minor: number) => string;

/** A variance: signed, and marked when beyond the tolerance; a dash with words when not counted. */
export function VarianceCell({
  line,
  money,
  hidden,
}: {
  line: CountLineState;
  money: Money;
  hidden: boolean;
}) {
  const t = useTranslations("signoff");
  if (line.variance === null || hidden)
    return (
      <span className="text-slate-500">
        <span aria-hidden="true">—</span>
        <span className="sr-only">{t("notCounted")}</span>
      </span>
    );
  return (
    <span
      data-testid={`variance-${line.key}`}
      data-beyond={line.beyond}
      className={line.beyond ? "rounded bg-red-100 px-1 font-semibold text-red-800" : undefined}
    >
      {line.variance > 0 ? "+" : ""}
      {money(line.variance)}
      {line.beyond && <span className="ml-1 text-xs">({t("beyond")})</span>}
    </span>
  );
}

/** What a counted cell shows: one line of the count, at a desk named in words. */
interface CellProps {
  line: CountLineState;
  desk: string;
  count: NightCount;
  money: Money;
}

/** Pieces per note and coin of one cash line: a grid that adds up. */
function PiecesGrid({ line, desk, count, money }: CellProps) {
  const t = useTranslations("signoff");
  const table = denominationsOf(count.currency);
  const pieces = line.input.pieces ?? {};
  const row = (value: number, kind: "note" | "coin") => {
    const text = pieces[String(value)] ?? "";
    const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : 0;
    return (
      <div key={value} className="contents">
        <label className="text-right text-xs" htmlFor={`pieces-${line.key}-${value}`}>
          {t(kind === "note" ? "notesOf" : "coinsOf", { value: money(value) })}
          <span className="sr-only"> {t("atDesk", { desk })}</span>
        </label>
        <input
          id={`pieces-${line.key}-${value}`}
          inputMode="numeric"
          className="w-16 rounded border border-slate-300 px-1 py-0.5 text-right"
          value={text}
          placeholder="—"
          onChange={(ev) => count.setPieces(line.key, { ...pieces, [String(value)]: ev.target.value })}
        />
        <span className="text-right text-xs tabular-nums text-slate-600">
          {n > 0 ? money(n * value) : ""}
        </span>
      </div>
    );
  };
  return (
    <fieldset className="mt-1 rounded border border-slate-200 p-2" data-testid={`pieces-${line.key}`}>
      <legend className="px-1 text-xs font-medium">{t("piecesLegend", { desk })}</legend>
      <div className="grid grid-cols-[auto_auto_auto] items-center gap-x-2 gap-y-1">
        {table?.notes.map((v) => row(v, "note"))}
        {table?.coins.map((v) => row(v, "coin"))}
      </div>
      <p className="mt-1 text-right text-sm font-semibold" data-testid={`pieces-total-${line.key}`}>
        {t("piecesTotal", { total: line.counted === null ? "—" : money(line.counted) })}
      </p>
      <button
        type="button"
        className={joinClasses(secondaryButtonClass, "mt-1 text-xs")}
        onClick={() => count.setText(line.key, "")}
      >
        {t("typeTotal")}
      </button>
    </fieldset>
  );
}

/** The counted cell: a typed total (placeholder "not counted", never 0.00) or the notes-and-coins grid. */
function CountedCell({ line, desk, count, money }: CellProps) {
  const t = useTranslations("signoff");
  const valueText = useValueText();
  if (line.input.pieces) return <PiecesGrid line={line} desk={desk} count={count} money={money} />;
  return (
    <div className="flex flex-col items-end gap-1">
      <input
        aria-label={t("countedAt", { method: valueText(line.expected.payment_method), desk })}
        aria-invalid={line.invalid}
        inputMode="decimal"
        className={joinClasses(inputClass, "w-28 text-right")}
        value={line.input.text}
        placeholder={t("placeholder")}
        onChange={(ev) => count.setText(line.key, ev.target.value)}
      />
      {line.canUsePieces && (
        <button
          type="button"
          className="text-xs text-blue-700 underline"
          onClick={() => count.setPieces(line.key, {})}
        >
          {t("byPieces")}
          <span className="sr-only"> {t("atDesk", { desk })}</span>
        </button>
      )}
    </div>
  );
}

/** Every desk and method of the night: the float, the flows, what is expected, what was counted, the variance. */
export function CountTable({
  count,
  canCount,
  money,
  desk,
}: {
  count: NightCount;
  canCount: boolean;
  money: Money;
  desk: (deviceId: string) => string;
}) {
  const t = useTranslations("signoff");
  const valueText = useValueText();
  const hidden = (l: CountLineState) => count.blind && l.counted === null;
  return (
    <DataTable
      caption={t("caption")}
      columns={[
        t("desk"),
        t("method"),
        numeric(t("float")),
        numeric(t("topups")),
        numeric(t("withdrawals")),
        numeric(t("sales")),
        numeric(t("expected")),
        numeric(t("counted")),
        numeric(t("variance")),
      ]}
      rows={count.lines.map((l) => {
        const e = l.expected;
        const shown = (minor: number) => (hidden(l) ? t("hiddenBlind") : money(minor));
        return {
          key: l.key,
          className: l.beyond ? "bg-red-50" : undefined,
          cells: [
            desk(e.device_id),
            valueText(e.payment_method),
            e.payment_method === "cash" ? money(e.float) : "",
            shown(e.topups),
            shown(e.withdrawals),
            shown(e.sales),
            <span key="x" data-testid={`expected-${l.key}`}>
              {shown(e.expected)}
            </span>,
            canCount ? (
              <CountedCell key="c" line={l} desk={desk(e.device_id)} count={count} money={money} />
            ) : l.counted === null ? (
              t("notCounted")
            ) : (
              money(l.counted)
            ),
            <VarianceCell key="v" line={l} money={money} hidden={hidden(l)} />,
          ],
        };
      })}
    />
  );
}
