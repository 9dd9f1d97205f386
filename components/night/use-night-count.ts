"use client";

import { useState } from "react";
import type { DraftLine, ExpectedLine, NightReport } from "@/lib/shared/api/night";
import {
  allDenominations,
  type DenominationCounts,
  denominationsOf,
  denominationTotal,
} from "@/lib/shared/denominations";
import { decimalString, parseAmount } from "@/lib/shared/format/money";
import { CASH } from "@/lib/shared/night-arithmetic";
import { beyondLine, type CountTotals, countTotals, needsApproval } from "@/lib/shared/night-close";

/**
 * The count of a night as the supervisor types it: per desk and method a typed total, or (cash, in
 * a currency with a table) pieces per note and coin. A blank line is "not counted", never zero.
 * Starts from the saved draft.
 */

export interface LineInput {
  /** The typed total. */
  text: string;
  /** Pieces typed per denomination; null: counted as a typed total. */
  pieces: Record<string, string> | null;
}

export interface CountLineState {
  key: string;
  expected: ExpectedLine;
  input: LineInput;
  /** Minor units, or null when blank. */
  counted: number | null;
  denominations: DenominationCounts | null;
  invalid: boolean;
  variance: number | null;
  beyond: boolean;
  /** The currency has notes and coins to count this line by. */
  canUsePieces: boolean;
}

export const lineKey = (l: { device_id: string; payment_method: string }) =>
  `${l.device_id}|${l.payment_method}`;

const PIECES = /^\d{1,7}$/;

function inputOf(draft: DraftLine | undefined, currency: string): LineInput {
  if (!draft) return { text: "", pieces: null };
  if (draft.denominations)
    return {
      text: "",
      pieces: Object.fromEntries(Object.entries(draft.denominations).map(([k, v]) => [k, String(v)])),
    };
  return { text: decimalString(draft.counted, currency), pieces: null };
}

function countOf(input: LineInput, currency: string, method: string) {
  if (input.pieces) {
    const typed = Object.entries(input.pieces).filter(([, v]) => v.trim() !== "");
    if (typed.length === 0) return { counted: null, denominations: null, invalid: false };
    if (typed.some(([, v]) => !PIECES.test(v.trim())))
      return { counted: null, denominations: null, invalid: true };
    const denominations = Object.fromEntries(typed.map(([k, v]) => [k, Number(v.trim())]));
    return { counted: denominationTotal(denominations), denominations, invalid: false };
  }
  if (input.text.trim() === "") return { counted: null, denominations: null, invalid: false };
  const counted = parseAmount(input.text, currency, { negative: method !== CASH });
  return { counted, denominations: null, invalid: counted === null };
}

/** A counted line as a request carries it: its notes and coins, or its typed total. */
function lineRequest(l: CountLineState) {
  const at = { device_id: l.expected.device_id, payment_method: l.expected.payment_method };
  return l.denominations ? { ...at, denominations: l.denominations } : { ...at, counted: l.counted! };
}

export function useNightCount(report: NightReport) {
  const currency = report.event?.currency ?? "EUR";
  const expected = report.figures?.expected ?? [];
  const [inputs, setInputs] = useState<Record<string, LineInput>>(() =>
    Object.fromEntries(report.draft.map((d) => [lineKey(d), inputOf(d, currency)])),
  );
  const [blind, setBlind] = useState(false);
  const [dirty, setDirty] = useState<Set<string>>(new Set());
  const lines: CountLineState[] = expected.map((e) => {
    const key = lineKey(e);
    const input = inputs[key] ?? { text: "", pieces: null };
    const v = countOf(input, currency, e.payment_method);
    const variance = v.counted === null ? null : v.counted - e.expected;
    return {
      key,
      expected: e,
      input,
      ...v,
      variance,
      beyond: variance !== null && beyondLine(variance, report.tolerance),
      canUsePieces: e.payment_method === CASH && denominationsOf(currency) !== null,
    };
  });
  const update = (key: string, input: LineInput) => {
    setInputs((all) => ({ ...all, [key]: input }));
    setDirty((d) => new Set(d).add(key));
  };
  const totals: CountTotals = countTotals(
    lines.map((l) => ({ expected: l.expected.expected, counted: l.counted })),
  );
  const counted = lines.filter((l) => l.counted !== null);
  return {
    currency,
    denominations: allDenominations(currency),
    lines,
    totals,
    blind,
    setBlind,
    invalid: lines.some((l) => l.invalid),
    needsApproval: needsApproval(
      counted.map((l) => l.variance ?? 0),
      report.tolerance,
    ),
    blank: lines.filter((l) => l.counted === null && !l.invalid),
    setText: (key: string, text: string) => update(key, { text, pieces: null }),
    setPieces: (key: string, pieces: Record<string, string> | null) => update(key, { text: "", pieces }),
    /** The counted lines as the sign-off sends them (blank lines are not sent: not counted). */
    request: () => counted.map(lineRequest),
    /** The lines changed since the last draft save, as the draft takes them (blank: cleared). */
    draftRequest: () =>
      lines
        .filter((l) => dirty.has(l.key) && !l.invalid)
        .map((l) =>
          l.counted === null
            ? { device_id: l.expected.device_id, payment_method: l.expected.payment_method, counted: null }
            : lineRequest(l),
        ),
    saved: () => setDirty(new Set()),
  };
}
export type NightCount = ReturnType<typeof useNightCount>;
