import type { EndpointSpec } from "@/lib/shared/api/endpoints";
import type { PushTopic } from "@/lib/shared/api/push";

/**
 * What the browser does with a push event, apart from React: which endpoints' reads a topic
 * refreshes (their declarations' `pushedBy`), and a throttle that refetches each at most once per
 * interval however fast the events come (the first at once, the last one kept for the end).
 */

/** Each topic's endpoint names, from the declarations. */
export function topicTargets(specs: readonly EndpointSpec[]): Map<PushTopic, string[]> {
  const targets = new Map<PushTopic, string[]>();
  for (const spec of specs)
    for (const topic of spec.pushedBy ?? []) targets.set(topic, [...(targets.get(topic) ?? []), spec.name]);
  return targets;
}

/** The names of every live read (a reset refetches them all). */
export const liveNames = (specs: readonly EndpointSpec[]) =>
  specs.filter((s) => s.refresh === "live").map((s) => s.name);

export interface ThrottleClock {
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (timer: unknown) => void;
}

const realClock: ThrottleClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** Runs `run(key)` at most once per `intervalMs` per key: at once when it may, else once when it may again. */
export class KeyThrottle {
  private readonly last = new Map<string, number>();
  private readonly pending = new Map<string, unknown>();

  constructor(
    private readonly run: (key: string) => void,
    private readonly intervalMs = 1000,
    private readonly clock: ThrottleClock = realClock,
  ) {}

  request(key: string): void {
    if (this.pending.has(key)) return;
    const wait = (this.last.get(key) ?? Number.NEGATIVE_INFINITY) + this.intervalMs - this.clock.now();
    if (wait <= 0) {
      this.fire(key);
      return;
    }
    this.pending.set(
      key,
      this.clock.setTimeout(() => {
        this.pending.delete(key);
        this.fire(key);
      }, wait),
    );
  }

  dispose(): void {
    for (const timer of this.pending.values()) this.clock.clearTimeout(timer);
    this.pending.clear();
  }

  private fire(key: string): void {
    this.last.set(key, this.clock.now());
    this.run(key);
  }
}
