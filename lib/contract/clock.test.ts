import { describe, expect, it } from "vitest";
import { isStartAt, resolveStartAt, SandboxClock } from "./clock";

describe("SANDBOX_START_AT", () => {
  it("takes an event-local HH:MM or an ISO instant with its offset, nothing else", () => {
    for (const ok of ["00:00", "05:30", "12:30", "23:30", "2026-07-11T21:30:00Z", "2026-07-11T23:30+02:00"])
      expect(isStartAt(ok), ok).toBe(true);
    for (const bad of ["24:00", "5:30", "23:60", "noon", "2026-07-11T21:30:00", "2026-13-11T21:30:00Z", ""])
      expect(isStartAt(bad), bad).toBe(false);
  });

  it("names that time on the event-local date of the real now, summer and winter time alike", () => {
    const summer = new Date("2026-07-11T08:00:00Z"); // 10:00 in Madrid (UTC+2)
    expect(resolveStartAt("23:30", "Europe/Madrid", summer).toISOString()).toBe("2026-07-11T21:30:00.000Z");
    expect(resolveStartAt("05:30", "Europe/Madrid", summer).toISOString()).toBe("2026-07-11T03:30:00.000Z");
    const winter = new Date("2026-11-27T23:30:00Z"); // already the 28th in Madrid (UTC+1)
    expect(resolveStartAt("12:30", "Europe/Madrid", winter).toISOString()).toBe("2026-11-28T11:30:00.000Z");
    expect(resolveStartAt("2026-07-11T21:30:00Z", "Europe/Madrid", winter).toISOString()).toBe(
      "2026-07-11T21:30:00.000Z",
    );
  });

  it("refuses a bad value or zone with a message naming the variable", () => {
    expect(() => resolveStartAt("11pm", "Europe/Madrid")).toThrow("SANDBOX_START_AT");
    expect(() => resolveStartAt("23:30", "Mars/Olympus")).toThrow("time zone");
  });
});

describe("the sandbox clock", () => {
  it("starts at the chosen instant and runs at the system clock's speed", () => {
    let real = Date.parse("2026-11-27T14:00:00Z");
    const clock = SandboxClock.startingAt(new Date("2026-11-27T22:30:00Z"), () => real);
    expect(clock.now().toISOString()).toBe("2026-11-27T22:30:00.000Z");
    real += 61_000;
    expect(clock.now().toISOString()).toBe("2026-11-27T22:31:01.000Z");
    expect(clock.offsetMs).toBe(8.5 * 3600_000);
  });

  it("moves forward only, and tells every follower before answering", async () => {
    const real = Date.parse("2026-11-27T14:00:00Z");
    const clock = new SandboxClock(0, () => real);
    const heard: number[] = [];
    clock.onChange(async (offset) => {
      await Promise.resolve();
      heard.push(offset);
    });
    expect((await clock.advance(90_000)).toISOString()).toBe("2026-11-27T14:01:30.000Z");
    expect(heard).toEqual([90_000]);
    await expect(clock.advance(-1)).rejects.toThrow("only moves forward");
    await expect(clock.advance(Number.NaN)).rejects.toThrow("only moves forward");
    expect(clock.offsetMs).toBe(90_000);
  });

  it("a follower takes a newer offset and never moves back", () => {
    const follower = new SandboxClock(5_000, () => 0);
    follower.follow(2_000);
    expect(follower.offsetMs).toBe(5_000);
    follower.follow(9_000);
    expect(follower.now().getTime()).toBe(9_000);
  });
});
