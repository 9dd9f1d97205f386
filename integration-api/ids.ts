import { randomBytes } from "node:crypto";

/**
 * ObjectId-like ids: 4-byte seconds timestamp, 5 bytes fixed per generator, 3-byte counter,
 * as 24 lowercase hex characters. Within one generator, ids grow with the time they are made,
 * which is what lets every list be ordered "by arrival" with `id > cursor`.
 */
export class IdGenerator {
  private readonly processPart: string;
  private counter: number;
  private lastSeconds = 0;

  constructor(random: () => number = Math.random) {
    this.processPart = Array.from({ length: 5 }, () =>
      Math.floor(random() * 256)
        .toString(16)
        .padStart(2, "0"),
    ).join("");
    this.counter = Math.floor(random() * 0xffff);
  }

  /** A new id for a record that arrives at `at` (default now). */
  next(at: Date = new Date()): string {
    // Never let the timestamp part go backwards inside one generator, so ids stay increasing.
    const seconds = Math.max(Math.floor(at.getTime() / 1000), this.lastSeconds);
    if (seconds !== this.lastSeconds) this.lastSeconds = seconds;
    this.counter = (this.counter + 1) % 0x1000000;
    return (
      seconds.toString(16).padStart(8, "0") + this.processPart + this.counter.toString(16).padStart(6, "0")
    );
  }
}

const defaultGenerator = new IdGenerator(() => randomBytes(1)[0] / 256);

/** A new id from the process-wide generator. */
export function newId(at?: Date): string {
  return defaultGenerator.next(at);
}

export const ID_PATTERN = /^[0-9a-f]{24}$/;
