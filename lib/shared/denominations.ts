/**
 * Notes and coins of a currency, in minor units, largest first: what a cash desk is counted by.
 * A currency without a table here is counted as a typed total.
 */

export interface Denominations {
  notes: readonly number[];
  coins: readonly number[];
}

const TABLES: Record<string, Denominations> = {
  // The euro: notes of 500 to 5, coins of 2 to 0.01.
  EUR: {
    notes: [50000, 20000, 10000, 5000, 2000, 1000, 500],
    coins: [200, 100, 50, 20, 10, 5, 2, 1],
  },
  GBP: {
    notes: [5000, 2000, 1000, 500],
    coins: [200, 100, 50, 20, 10, 5, 2, 1],
  },
  USD: {
    notes: [10000, 5000, 2000, 1000, 500, 200, 100],
    coins: [100, 50, 25, 10, 5, 1],
  },
  CHF: {
    notes: [100000, 20000, 10000, 5000, 2000, 1000],
    coins: [500, 200, 100, 50, 20, 10, 5],
  },
};

/** The currency's notes and coins, or null: count it as a typed total. */
export function denominationsOf(currency: string): Denominations | null {
  return TABLES[currency.toUpperCase()] ?? null;
}

/** Every denomination of the currency, largest first (empty without a table). */
export function allDenominations(currency: string): number[] {
  const table = denominationsOf(currency);
  return table ? [...table.notes, ...table.coins] : [];
}

/** Pieces counted per denomination: `{ "5000": 3 }` is three notes of 50.00. */
export type DenominationCounts = Record<string, number>;

/** The most pieces of one denomination a count may hold (a sanity bound, not a rule of cash). */
export const MAX_PIECES = 1_000_000;

/** The value of the pieces counted, in minor units. */
export function denominationTotal(counts: DenominationCounts): number {
  return Object.entries(counts).reduce((sum, [value, pieces]) => sum + Number(value) * pieces, 0);
}

/** The denominations of `counts` the currency does not have (a typo, or another currency's coin). */
export function unknownDenominations(currency: string, counts: DenominationCounts): string[] {
  const known = new Set(allDenominations(currency).map(String));
  return Object.keys(counts).filter((k) => !known.has(k));
}
