/** Time and randomness for tests: a clock the test moves, and a seeded PRNG. */

export class FakeClock {
  constructor(public ms: number) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number) {
    this.ms += Math.max(0, ms);
  }
  /** An injectable `sleep` that only moves this clock. */
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    this.advance(ms);
  };
}

/** mulberry32: a small seeded PRNG, in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
