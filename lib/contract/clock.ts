import { DateTime, IANAZone } from "luxon";

/**
 * One clock per process ("Time: one clock" in docs/architecture.md): every module that needs "now"
 * is handed a `Clock` instead of calling `new Date()`. In production it is the system clock. The
 * sandbox's clock can start at a chosen event-local time (`SANDBOX_START_AT`) and be moved forward
 * by its controls; it is the system clock plus an offset, so two processes given the same offset
 * (the Integration API and the console, see scripts/start.ts) read the same instant.
 *
 * Shared by the Integration API and the console (lib/contract stands alone).
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** `HH:MM` (event-local, 00:00–23:59) or a full ISO instant with its offset. */
const LOCAL_TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether `value` is a valid SANDBOX_START_AT: `HH:MM` or an ISO instant with its offset. */
export function isStartAt(value: string): boolean {
  return LOCAL_TIME.test(value) || (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value)));
}

/**
 * The instant SANDBOX_START_AT names: an ISO instant as it is; `HH:MM` at that event-local time on the
 * event-local date of `realNow` (so `05:30` is the last half hour of the night that began the
 * evening before, `12:30` the first half hour of today's). Throws on anything else.
 */
export function resolveStartAt(value: string, timeZone: string, realNow: Date = new Date()): Date {
  if (!IANAZone.isValidZone(timeZone)) throw new Error(`not an IANA time zone: ${timeZone}`);
  const local = LOCAL_TIME.exec(value);
  if (local) {
    const date = DateTime.fromJSDate(realNow, { zone: timeZone });
    return date
      .set({ hour: Number(local[1]), minute: Number(local[2]), second: 0, millisecond: 0 })
      .toJSDate();
  }
  if (isStartAt(value)) return new Date(value);
  throw new Error(`SANDBOX_START_AT: "${value}" is neither an event-local time (HH:MM) nor an ISO instant`);
}

/**
 * The sandbox's clock: the system clock moved by `offsetMs`. It runs at real speed; `advance` moves
 * it forward (never back: records already written keep their order). `onChange` hears every new
 * offset, so that a second process can follow it.
 */
export class SandboxClock {
  private offset: number;
  private readonly listeners = new Set<(offsetMs: number) => void | Promise<void>>();

  constructor(
    offsetMs = 0,
    private readonly realNow: () => number = Date.now,
  ) {
    this.offset = offsetMs;
  }

  /** A clock that reads `startAt` now and runs on from there. */
  static startingAt(startAt: Date, realNow: () => number = Date.now): SandboxClock {
    return new SandboxClock(startAt.getTime() - realNow(), realNow);
  }

  readonly now: Clock = () => new Date(this.realNow() + this.offset);

  get offsetMs(): number {
    return this.offset;
  }

  /** Moves the clock forward by `ms` (≥ 0) and tells every follower; resolves once they heard it. */
  async advance(ms: number): Promise<Date> {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new Error("the sandbox clock only moves forward");
    this.offset += ms;
    await Promise.all([...this.listeners].map((listener) => listener(this.offset)));
    return this.now();
  }

  /** Follows another process's clock: takes its offset (never moving back). */
  follow(offsetMs: number): void {
    if (Number.isFinite(offsetMs) && offsetMs > this.offset) this.offset = offsetMs;
  }

  onChange(listener: (offsetMs: number) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
