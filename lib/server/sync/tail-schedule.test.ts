import { describe, expect, it } from "vitest";
import { summariesDue } from "./checksum";
import { pollIntervalMs, pollRequests, tailsOfPoll } from "./tail-schedule";

describe("the tail polls' schedule", () => {
  it("polls every tail interval, while older days are walked too, unless a small quota leaves the walk nothing", () => {
    expect(pollIntervalMs(3000, false, 120)).toBe(3000);
    // 120 reads a minute, 48 kept for lookups: the polls may take 54 of the worker's 72, 5/3
    // requests a poll → 32.4 polls, more than the 20 a 3 s rhythm asks for: it holds.
    expect(pollIntervalMs(3000, true, 120)).toBe(3000);
    // A minute of those polls (34 requests) leaves the walk and the cycles 38 of the 72.
    expect(72 - pollRequests(60_000, pollIntervalMs(3000, true, 120), 3)).toBe(38);
    // 30 a minute: 18 for the worker, 13.5 for the polls → 8.1 polls, one every 7.5 s.
    expect(pollIntervalMs(3000, true, 30)).toBe(7408);
    // A larger reserve leaves the polls less.
    expect(pollIntervalMs(3000, true, 60, 0.7)).toBeGreaterThan(pollIntervalMs(3000, true, 60, 0.4));
    // A generous quota never polls more often than asked.
    expect(pollIntervalMs(3000, true, 10_000)).toBe(3000);
    // Quota not known yet: the configured interval.
    expect(pollIntervalMs(3000, true, undefined)).toBe(3000);
  });

  it("counts sales every poll and the other followed tails every third", () => {
    expect(pollRequests(30_000, 3000, 3)).toBe(10 + 4 * 2);
    expect(pollRequests(30_000, 3000, 1)).toBe(10);
    expect(pollRequests(1, 3000, 3)).toBe(1 + 1 * 2);
    expect(pollRequests(30_000, 3000, 0)).toBe(0);
    expect(pollRequests(30_000, 0, 3)).toBe(0);
    expect(pollRequests(-5, 3000, 3)).toBe(0);
    expect([0, 1, 2, 3].map((n) => tailsOfPoll(n).join())).toEqual([
      "sales,topups,scans",
      "sales",
      "sales",
      "sales,topups,scans",
    ]);
  });
});

describe("the day summaries a cycle fetches", () => {
  const at = new Date("2026-07-17T20:00:00Z");
  const base = {
    order: ["today", "yesterday", "day-before"],
    kept: new Set<string>(),
    fetchedAt: new Map<string, number>(),
    refreshMs: 5 * 60_000,
    at,
  };

  it("every day, every cycle, once nothing is walked", () => {
    const due = summariesDue({ ...base, backfilling: false, walkingToday: false, kept: new Set(base.order) });
    expect(due).toEqual(base.order);
  });

  it("while today is walked: today, and the other days only while none of theirs is kept", () => {
    const due = summariesDue({
      ...base,
      backfilling: true,
      walkingToday: true,
      kept: new Set(["yesterday"]),
    });
    expect(due).toEqual(["today", "day-before"]);
  });

  it("while older days are walked: the others once per refresh interval", () => {
    const fetchedAt = new Map([
      ["yesterday", at.getTime() - 60_000],
      ["day-before", at.getTime() - 6 * 60_000],
    ]);
    const due = summariesDue({
      ...base,
      backfilling: true,
      walkingToday: false,
      kept: new Set(base.order),
      fetchedAt,
    });
    expect(due).toEqual(["today", "day-before"]);
  });
});
