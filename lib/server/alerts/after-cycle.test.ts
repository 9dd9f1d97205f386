import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/db";
import { type SyncUpstream, storeAndUpstreamPerFile, syncHarness } from "@/lib/testing/sync-harness";
import { terminalStates } from "../store/attention";
import { attentionAfterCycle } from "./evaluate";

/**
 * The sync worker computes the terminal states after each cycle, from what it just mirrored (from
 * the real Integration API in-process, lib/testing/sync-harness.ts).
 */

let store: Db;
let up: SyncUpstream;
storeAndUpstreamPerFile((opened) => ({ store, up } = opened));

const config = { ATTENTION_QUIET_S: 600, ATTENTION_LATE_S: 600, ATTENTION_ALERT_S: 900 };

describe("attention after each sync cycle", () => {
  it("stores a state for every device the mirror holds, as of the cycle's clock", async () => {
    const afterCycle = await attentionAfterCycle(store, config);
    const h = await syncHarness(store, up, { seed: 12, worker: { afterCycle } });
    await h.worker.runOnce();
    const states = await terminalStates(store);
    const devices = await store.query<{ device_id: string }>(
      `select distinct device_id from (
         select device_id from m_sales union select device_id from m_topups union select device_id from m_scans
       ) d where device_id is not null order by 1`,
    );
    expect(states.map((s) => s.device_id)).toEqual(devices.map((d) => d.device_id));
    expect(new Set(states.map((s) => s.computed_at))).toEqual(new Set([h.clock.now().toISOString()]));
  });

  it("while the first mirror holds the quota, it also runs after backfill pages, once per interval", async () => {
    let calls = 0;
    const h = await syncHarness(store, up, {
      seed: 12,
      readLimit: 30,
      worker: {
        afterCycle: async () => {
          calls++;
        },
      },
    });
    const ranAfter: string[] = [];
    const times: number[] = [];
    for (let i = 0; i < 120 && ranAfter.filter((k) => k !== "cycle").length < 2; i++) {
      const before = calls;
      const kind = await h.worker.step();
      if (calls > before) {
        ranAfter.push(kind);
        times.push(h.clock.now().getTime());
      }
    }
    expect(ranAfter[0]).toBe("cycle");
    expect(ranAfter.filter((k) => k === "backfill" || k === "tail").length).toBeGreaterThanOrEqual(1);
    // never more often than once per cycle interval (30 s)
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(30_000);
  });

  it("a failure of the after-cycle work is logged; the cycle stands", async () => {
    const h = await syncHarness(store, up, {
      seed: 12,
      worker: {
        afterCycle: async () => {
          throw new Error("boom");
        },
      },
    });
    const report = await h.worker.runOnce();
    expect(report.aborted).toBeFalsy();
    expect(report.resources.sales?.ok).toBe(true);
    expect(h.logs.some((l) => l.startsWith("error [sync] after-cycle work failed"))).toBe(true);
  });
});
