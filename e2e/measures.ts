import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Figures the browser tests measure on the way (a takeover's time, the time to the first figures,
 * Lighthouse's performance score). `npm test` asserts what the user gets, never how fast on this
 * machine: each figure is printed and appended, one JSON line each, to E2E_MEASURES (default
 * `.test-results/e2e-measures.jsonl`), from which `npm run bench:browser` makes its rows and goals.
 */
export const MEASURES_FILE = process.env.E2E_MEASURES ?? ".test-results/e2e-measures.jsonl";

export interface Measure {
  /** What was measured, e.g. `lighthouse-performance login`. */
  name: string;
  value: number;
  unit: "s" | "score";
}

export function recordMeasure(measure: Measure): void {
  console.log(`measured ${measure.name}: ${measure.value} ${measure.unit}`);
  mkdirSync(dirname(MEASURES_FILE), { recursive: true });
  appendFileSync(MEASURES_FILE, `${JSON.stringify(measure)}\n`);
}
