import { describe, expect, it } from "vitest";
import { freshness, STALE_AFTER_MS, type SyncHealth } from "./freshness";

/** The staleness rule at its edges: 89/90/91 s, each reason, nothing stale without an as-of. */

const AS_OF = "2026-07-11T18:42:07.000Z";
const at = (seconds: number) => Date.parse(AS_OF) + seconds * 1000;
const healthy: SyncHealth = { worker_stale: false, failing: [], paused_until: null };

describe("freshness", () => {
  it("is fresh up to 90 s and stale past it", () => {
    expect(STALE_AFTER_MS).toBe(90_000);
    expect(freshness({ asOf: AS_OF, now: at(89), sync: healthy, stream: "open" })).toEqual({
      age: 89,
      stale: false,
      reasons: [],
    });
    expect(freshness({ asOf: AS_OF, now: at(90), sync: healthy, stream: "open" })).toEqual({
      age: 90,
      stale: false,
      reasons: [],
    });
    expect(freshness({ asOf: AS_OF, now: at(90.001), sync: healthy, stream: "open" }).stale).toBe(true);
    expect(freshness({ asOf: AS_OF, now: at(91), sync: healthy, stream: "open" })).toEqual({
      age: 91,
      stale: true,
      reasons: ["sync_behind"],
    });
  });

  it("takes an as-of in ms, and a clock behind the as-of as age 0", () => {
    expect(freshness({ asOf: at(0), now: at(2.7), sync: null, stream: "open" }).age).toBe(2);
    expect(freshness({ asOf: AS_OF, now: at(-5), sync: healthy, stream: "open" })).toEqual({
      age: 0,
      stale: false,
      reasons: [],
    });
  });

  it("says nothing of figures never synced (the first mirror's banner does)", () => {
    expect(freshness({ asOf: null, now: at(1000), sync: healthy, stream: "off" })).toEqual({
      age: null,
      stale: false,
      reasons: [],
    });
  });

  it("gives each reason when stale", () => {
    const stale = (
      sync: SyncHealth,
      stream: "open" | "reconnecting" | "off" = "open",
      refreshFailing = false,
    ) => freshness({ asOf: AS_OF, now: at(120), sync, stream, refreshFailing }).reasons;
    expect(stale({ ...healthy, worker_stale: true })).toEqual(["sync_stopped"]);
    expect(stale({ ...healthy, failing: ["sales"] })).toEqual(["sync_failing"]);
    expect(stale({ ...healthy, paused_until: new Date(at(150)).toISOString() })).toEqual(["quota"]);
    // A pause that has ended is no reason any more.
    expect(stale({ ...healthy, paused_until: new Date(at(100)).toISOString() })).toEqual(["sync_behind"]);
    expect(stale(healthy, "reconnecting")).toEqual(["stream_down"]);
    expect(stale(healthy, "off")).toEqual(["stream_down"]);
    expect(stale(healthy, "open", true)).toEqual(["refresh_failing"]);
    expect(
      stale({ worker_stale: true, failing: ["sales"], paused_until: new Date(at(200)).toISOString() }, "off"),
    ).toEqual(["sync_stopped", "sync_failing", "quota", "stream_down"]);
  });

  it("gives no reason while fresh, whatever the sync says", () => {
    expect(
      freshness({
        asOf: AS_OF,
        now: at(10),
        sync: { worker_stale: true, failing: ["sales"], paused_until: null },
        stream: "off",
      }),
    ).toEqual({ age: 10, stale: false, reasons: [] });
  });
});
