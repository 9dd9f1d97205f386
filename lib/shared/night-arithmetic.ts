import {
  COUNTED_METHODS,
  type CountedLine,
  type Drift,
  type DriftLine,
  type ExpectedLine,
  type NightFigures,
} from "@/lib/shared/api/night";
import type { DenominationCounts } from "./denominations";

/**
 * The night reconciliation's arithmetic, pure (server and browser): expected money per desk (the
 * opening float included), variance of a count, and the drift of a night against a sign-off's snapshot. Integer cents.
 */

export interface FlowRow {
  device_id: string | null;
  payment_method: string;
  amount: number;
}

/** The opening float of a cash desk. */
export interface FloatRow {
  device_id: string;
  amount: number;
}

/** The method whose money a desk holds in its drawer: the only one with an opening float. */
export const CASH = "cash";

/** Expected cash in a drawer: the opening float + cash top-ups − cash withdrawals + cash sales. */
export function expectedCash(line: { float: number; topups: number; withdrawals: number; sales: number }) {
  return line.float + line.topups - line.withdrawals + line.sales;
}

/**
 * Expected money per desk and method: the opening float (cash only) + paid top-ups − withdrawals +
 * sales (returns are negative sales, so they reduce it). Only `methods` count (bonus/promo/transfer
 * move no money at a desk). A desk given a float has a cash line even before its first record.
 * Records without a device are grouped under "" (online, no terminal).
 */
export function expectedByDesk(
  input: { topups: FlowRow[]; withdrawals: FlowRow[]; sales: FlowRow[]; floats?: FloatRow[] },
  methods: readonly string[] = COUNTED_METHODS,
): ExpectedLine[] {
  const lines = new Map<string, ExpectedLine>();
  const lineOf = (deviceId: string | null, method: string) => {
    const device_id = deviceId ?? "";
    const key = `${device_id}\u0000${method}`;
    const line = lines.get(key) ?? {
      device_id,
      payment_method: method,
      float: 0,
      topups: 0,
      withdrawals: 0,
      sales: 0,
      expected: 0,
    };
    lines.set(key, line);
    return line;
  };
  const add = (row: FlowRow, field: "topups" | "withdrawals" | "sales") => {
    if (!methods.includes(row.payment_method)) return;
    const line = lineOf(row.device_id, row.payment_method);
    line[field] += row.amount;
    line.expected = expectedCash(line);
  };
  if (methods.includes(CASH))
    for (const f of input.floats ?? []) {
      const line = lineOf(f.device_id, CASH);
      line.float += f.amount;
      line.expected = expectedCash(line);
    }
  for (const r of input.topups) add(r, "topups");
  for (const r of input.withdrawals) add(r, "withdrawals");
  for (const r of input.sales) add(r, "sales");
  return [...lines.values()].sort(
    (a, b) => a.device_id.localeCompare(b.device_id) || a.payment_method.localeCompare(b.payment_method),
  );
}

/** What a count says: a typed total, or pieces per denomination (their sum is the count). */
export interface CountInput {
  device_id: string;
  payment_method: string;
  counted: number;
  denominations?: DenominationCounts;
}

/** Counted vs expected per desk and method; a desk/method counted but not expected expects 0. */
export function countedLines(expected: ExpectedLine[], counted: CountInput[]): CountedLine[] {
  return counted.map((c) => {
    const e =
      expected.find((x) => x.device_id === c.device_id && x.payment_method === c.payment_method)?.expected ??
      0;
    return {
      device_id: c.device_id,
      payment_method: c.payment_method,
      counted: c.counted,
      expected: e,
      variance: c.counted - e,
      ...(c.denominations ? { denominations: c.denominations } : {}),
    };
  });
}

/** Every comparable line of a night, keyed (the drift compares these). */
function figureValues(f: NightFigures): { key: string; label: string; money: boolean; value: number }[] {
  const out: { key: string; label: string; money: boolean; value: number }[] = [
    { key: "sales.count", label: "Sales count", money: false, value: f.sales.count },
    { key: "sales.total", label: "Sales total", money: true, value: f.sales.total },
    { key: "sales.base", label: "Sales base", money: true, value: f.sales.total_base },
    { key: "sales.tax", label: "Sales tax", money: true, value: f.sales.total_tax },
  ];
  for (const r of f.sales_by_payment_method)
    out.push({
      key: `sales.method.${r.payment_method}`,
      label: `Sales by ${r.payment_method}`,
      money: true,
      value: r.total,
    });
  for (const r of f.sales_by_device)
    out.push({
      key: `sales.device.${r.device_id}`,
      label: `Sales at ${r.device_id || "unknown terminal"}`,
      money: true,
      value: r.total,
    });
  for (const r of f.sales_by_tax)
    out.push({
      key: `sales.tax.${r.tax_type}.${r.rate}`,
      label: `${r.tax_type} ${r.rate}% base`,
      money: true,
      value: r.base,
    });
  out.push({ key: "topups.amount", label: "Top-ups", money: true, value: f.topups.amount });
  for (const r of f.topups_by_payment_method)
    out.push({
      key: `topups.method.${r.payment_method}`,
      label: `Top-ups by ${r.payment_method}`,
      money: true,
      value: r.amount,
    });
  out.push({ key: "withdrawals.amount", label: "Withdrawals", money: true, value: f.withdrawals.amount });
  for (const r of f.withdrawals_by_payment_method)
    out.push({
      key: `withdrawals.method.${r.payment_method}`,
      label: `Withdrawals by ${r.payment_method}`,
      money: true,
      value: r.amount,
    });
  out.push({ key: "bonuses.amount", label: "Bonuses", money: true, value: f.bonuses.amount });
  out.push({ key: "transfers.amount", label: "Transfers", money: true, value: f.transfers.amount });
  for (const e of f.expected)
    out.push({
      key: `expected.${e.device_id}.${e.payment_method}`,
      label: `Expected ${e.payment_method} at ${e.device_id || "unknown desk"}`,
      money: true,
      value: e.expected,
    });
  return out;
}

/** What changed between a sign-off's figures and now (null when nothing did). */
export function driftOf(signoffId: string, before: NightFigures, after: NightFigures): Drift | null {
  const a = new Map(figureValues(before).map((l) => [l.key, l]));
  const b = new Map(figureValues(after).map((l) => [l.key, l]));
  const lines: DriftLine[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    const beforeValue = x?.value ?? 0;
    const afterValue = y?.value ?? 0;
    if (beforeValue === afterValue) continue;
    const meta = (y ?? x)!;
    lines.push({
      key,
      label: meta.label,
      money: meta.money,
      before: beforeValue,
      after: afterValue,
      delta: afterValue - beforeValue,
    });
  }
  if (lines.length === 0) return null;
  return {
    signoff_id: signoffId,
    sales_count: after.sales.count - before.sales.count,
    sales_total: after.sales.total - before.sales.total,
    lines,
  };
}
