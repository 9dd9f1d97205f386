import { describe, expect, it } from "vitest";
import { allEndpoints } from "@/lib/shared/api/endpoints";
import { KeyThrottle, liveNames, topicTargets } from "./push-refresh";

/** A clock whose timers run when the test moves it. */
function manualClock() {
  let now = 0;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimeout: (fn: () => void, ms: number) => {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer: unknown) => {
      timers.splice(timers.indexOf(timer as (typeof timers)[number]), 1);
    },
    advance(ms: number) {
      now += ms;
      for (const t of timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    },
    pending: () => timers.length,
  };
}

describe("what a pushed event refreshes in the browser", () => {
  it("a topic refreshes the endpoints that declare it; a reset every live read", () => {
    const targets = topicTargets(allEndpoints);
    expect(targets.get("sales")).toEqual(expect.arrayContaining(["live.overview", "live.sales"]));
    expect(targets.get("sales")).not.toContain("live.scans");
    expect(targets.get("alerts")).toEqual(expect.arrayContaining(["alerts.count", "alerts.list"]));
    expect(liveNames(allEndpoints)).toContain("users.list");
    expect(liveNames(allEndpoints)).not.toContain("gate.ticket");
  });

  it("refetches each read at most once a second however fast the events come: the first at once, the last kept", () => {
    const clock = manualClock();
    const runs: [number, string][] = [];
    const throttle = new KeyThrottle((key) => runs.push([clock.now(), key]), 1000, clock);
    // 20 events a second for 3 s, each refreshing the overview; the sales list only once.
    for (let t = 0; t < 3000; t += 50) {
      throttle.request("live.overview");
      if (t === 100) throttle.request("live.sales");
      clock.advance(50);
    }
    clock.advance(2000);
    expect(runs.filter(([, k]) => k === "live.overview").map(([at]) => at)).toEqual([0, 1000, 2000, 3000]);
    expect(runs.filter(([, k]) => k === "live.sales").map(([at]) => at)).toEqual([100]);
    // Disposed: a pending refetch is dropped.
    throttle.request("live.overview");
    throttle.request("live.overview");
    expect(clock.pending()).toBe(1);
    throttle.dispose();
    expect(clock.pending()).toBe(0);
  });
});
