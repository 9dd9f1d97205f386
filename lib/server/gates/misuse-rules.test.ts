import { describe, expect, it } from "vitest";
import {
  DEFAULT_RULES,
  deniedBursts,
  doubleCheckIns,
  doubleSwipes,
  impossibleWalks,
  offlineDoubleSpends,
  type SaleFact,
  type ScanFact,
  type TopupFact,
} from "./misuse-rules";

/** Each misuse rule with its edges: clock skew, late and out-of-order records, one device at two zones, midnight. */

const T = Date.parse("2026-07-11T23:59:30.000Z");
const at = (s: number) => new Date(T + s * 1000).toISOString();
let n = 0;
function scan(p: Partial<ScanFact> & { s: number; arrived?: number }): ScanFact {
  const { s, arrived, ...rest } = p;
  return {
    id: `scan_${++n}`,
    kind: "access_check",
    allowed: true,
    reason: null,
    ticket_code: "TCK1",
    wristband_id: "wb_1",
    zone_id: "zone_a",
    device_id: "gate-a",
    day_id: "day_1",
    occurred_at: at(s),
    created_at: at(arrived ?? s),
    ...rest,
  };
}
function sale(p: Partial<SaleFact> & { s: number; arrived?: number }): SaleFact {
  const { s, arrived, ...rest } = p;
  return {
    id: `sale_${++n}`,
    type: "cart",
    status: "completed",
    payment_method: "wristband",
    total: 700,
    wristband_id: "wb_1",
    device_id: "bar-01",
    day_id: "day_1",
    occurred_at: at(s),
    created_at: at(arrived ?? s),
    ...rest,
  };
}
function topup(p: Partial<TopupFact> & { s: number }): TopupFact {
  const { s, ...rest } = p;
  return {
    id: `topup_${++n}`,
    direction: "topup",
    amount: 2000,
    new_balance: 2000,
    payment_method: "card",
    status: "completed",
    wristband_id: "wb_1",
    device_id: "topup-01",
    occurred_at: at(s),
    created_at: at(s),
    ...rest,
  };
}

/** Each device's smallest arrival delay among the records: its clock offset, as the store keeps it. */
function smallestDelays(records: ScanFact[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) {
    const delay = Date.parse(r.created_at) - Date.parse(r.occurred_at);
    if (r.device_id && !(delay >= (out.get(r.device_id) ?? Number.POSITIVE_INFINITY)))
      out.set(r.device_id, delay);
  }
  return out;
}

const walks = (fresh: ScanFact[], all: ScanFact[]) =>
  impossibleWalks(fresh, all, smallestDelays(all), DEFAULT_RULES);

describe("impossible walk", () => {
  it("flags one wristband allowed at two zones 30 s apart, once, whichever record arrives first", () => {
    const a = scan({ s: 0 });
    const b = scan({ s: 30, zone_id: "zone_b", device_id: "gate-b" });
    const first = walks([a, b], [a, b]);
    expect(first).toHaveLength(1);
    expect(first[0]!.figures).toMatchObject({ from_zone: "zone_a", to_zone: "zone_b", seconds: 30 });
    expect(first[0]!.evidence.map((e) => e.id)).toEqual([a.id, b.id]);
    // The second record arrived alone, then the first late and out of order: the same case.
    expect(walks([b], [a, b])[0]!.key).toBe(first[0]!.key);
    expect(walks([a], [a, b])[0]!.key).toBe(first[0]!.key);
  });

  it("a walk of at least the minimum, the same zone twice, or a denied scan is no case", () => {
    const a = scan({ s: 0 });
    expect(walks([a], [a, scan({ s: 60, zone_id: "zone_b", device_id: "gate-b" })])).toEqual([]);
    expect(walks([a], [a, scan({ s: 5, device_id: "gate-a2" })])).toEqual([]);
    expect(walks([a], [a, scan({ s: 5, zone_id: "zone_b", device_id: "gate-b", allowed: false })])).toEqual(
      [],
    );
  });

  it("one device that scans at two zones (a handheld moved between doors) is not a walk", () => {
    const a = scan({ s: 0 });
    expect(walks([a], [a, scan({ s: 10, zone_id: "zone_b" })])).toEqual([]);
  });

  it("a device whose clock is behind is corrected by its arrival delay: no false walk, no missed one", () => {
    // gate-b's clock is 90 s behind: a person who walked 90 s reads as 0 s apart.
    const a = scan({ s: 0 });
    const b = scan({ s: 0, arrived: 90, zone_id: "zone_b", device_id: "gate-b" });
    expect(walks([b], [a, b])).toEqual([]);
    // 20 s of real walk reads as 70 s on the clocks: found once corrected.
    const c = scan({ s: 1000 });
    const d = scan({ s: 1020 - 90, arrived: 1020, zone_id: "zone_b", device_id: "gate-b" });
    expect(walks([d], [c, d])).toHaveLength(1);
  });

  it("an offline device (arriving minutes late) is not taken for a clock", () => {
    const a = scan({ s: 0 });
    const b = scan({ s: 20, arrived: 900, zone_id: "zone_b", device_id: "gate-b" });
    expect(walks([b], [a, b])).toHaveLength(1);
  });

  it("a night past midnight: the two scans on either side of 00:00 are one walk", () => {
    const a = scan({ s: 0 });
    const b = scan({ s: 45, zone_id: "zone_b", device_id: "gate-b" });
    expect(at(0).slice(0, 10)).not.toBe(at(45).slice(0, 10));
    expect(walks([b], [a, b])).toHaveLength(1);
  });

  it("a per-pair minimum overrides the default", () => {
    const a = scan({ s: 0 });
    const b = scan({ s: 100, zone_id: "zone_b", device_id: "gate-b" });
    const rules = { ...DEFAULT_RULES, walkPairs: new Map([["zone_a|zone_b", 180_000]]) };
    expect(impossibleWalks([b], [a, b], new Map(), rules)).toHaveLength(1);
  });
});

describe("double check-in", () => {
  it("a ticket checked in twice, or with a second wristband: one case per ticket, growing", () => {
    const a = scan({ s: 0, kind: "check_in", zone_id: null });
    const b = scan({
      s: 600,
      arrived: 4000,
      kind: "check_in",
      zone_id: null,
      wristband_id: "wb_2",
      device_id: "gate-b",
    });
    const [c] = doubleCheckIns([a, b]);
    expect(c).toMatchObject({ key: "double_checkin:TCK1", figures: { check_ins: 2, wristbands: 2 } });
    const third = scan({ s: 700, kind: "check_in", zone_id: null });
    expect(doubleCheckIns([a, b, third])[0]).toMatchObject({
      key: "double_checkin:TCK1",
      figures: { check_ins: 3 },
    });
    expect(
      doubleCheckIns([a, scan({ s: 5, kind: "check_in", allowed: false, reason: "already_used" })]),
    ).toEqual([]);
  });
});

describe("double swipe", () => {
  it("the same terminal, wristband and amount within 10 s; late and out of order alike", () => {
    const a = sale({ s: 0 });
    const b = sale({ s: 4, arrived: 800 });
    const [c] = doubleSwipes([b], [a, b], DEFAULT_RULES);
    expect(c).toMatchObject({ kind: "double_swipe", figures: { amount: 700, seconds: 4 } });
    expect(doubleSwipes([a], [a, b], DEFAULT_RULES)[0]!.key).toBe(c!.key);
  });

  it("another amount, another terminal, another wristband or 11 s apart is no swipe", () => {
    const a = sale({ s: 0 });
    for (const other of [
      sale({ s: 3, total: 800 }),
      sale({ s: 3, device_id: "bar-02" }),
      sale({ s: 3, wristband_id: "wb_2" }),
      sale({ s: 11 }),
    ])
      expect(doubleSwipes([other], [a, other], DEFAULT_RULES)).toEqual([]);
  });
});

describe("offline double spend", () => {
  const LATE = 600_000;
  it("offline sales that take the paid balance below zero: a case with the top-up and the sales", () => {
    const t = topup({ s: 0, new_balance: 1000 });
    const online = sale({ s: 60, total: 600 });
    const offline = sale({ s: 120, arrived: 1500, total: 600, device_id: "bar-02" });
    const [c] = offlineDoubleSpends("wb_1", [online, offline], [t], LATE);
    expect(c).toMatchObject({ kind: "offline_double_spend", figures: { balance: -200, offline_sales: 1 } });
    expect(c!.evidence.map((e) => e.id)).toEqual([t.id, online.id, offline.id]);
  });

  it("the promo balance is spent first; a top-up after the sales restates the balance", () => {
    const t = topup({ s: 0, new_balance: 500 });
    const promo = topup({ s: 1, new_balance: 500, payment_method: "promo" });
    const offline = sale({ s: 120, arrived: 1500, total: 900 });
    expect(offlineDoubleSpends("wb_1", [offline], [t, promo], LATE)).toEqual([]);
    // Below zero online only (no late sale): the negative-balance alert's, not an offline spend.
    expect(offlineDoubleSpends("wb_1", [sale({ s: 200, total: 900 })], [t], LATE)).toEqual([]);
  });
});

describe("denied burst", () => {
  const denied = (s: number, device = "gate-a", reason = "unknown_code") =>
    scan({ s, allowed: false, reason, device_id: device, wristband_id: null, ticket_code: null });
  it("ten of one reason at one gate within 5 minutes is one burst, out of order alike", () => {
    const xs = Array.from({ length: 12 }, (_, i) => denied(i * 20)).reverse();
    const bursts = deniedBursts(xs, DEFAULT_RULES);
    expect(bursts).toHaveLength(1);
    expect(bursts[0]!.figures).toMatchObject({ denied: 12, reason: "unknown_code", device_id: "gate-a" });
  });

  it("a gate that always turns this many away is not having a burst", () => {
    const xs = Array.from({ length: 12 }, (_, i) => denied(i * 20));
    expect(deniedBursts(xs, DEFAULT_RULES, new Map([["gate-a|unknown_code", 5]]))).toEqual([]);
    expect(deniedBursts(xs, DEFAULT_RULES, new Map([["gate-a|unknown_code", 3]]))).toHaveLength(1);
  });

  it("nine, ten spread over more than 5 minutes, or two reasons or gates mixed are no burst", () => {
    expect(
      deniedBursts(
        Array.from({ length: 9 }, (_, i) => denied(i)),
        DEFAULT_RULES,
      ),
    ).toEqual([]);
    expect(
      deniedBursts(
        Array.from({ length: 10 }, (_, i) => denied(i * 40)),
        DEFAULT_RULES,
      ),
    ).toEqual([]);
    const mixed = Array.from({ length: 10 }, (_, i) =>
      denied(i, i % 2 ? "gate-a" : "gate-b", i % 3 ? "unknown_code" : "day_not_valid"),
    );
    expect(deniedBursts(mixed, DEFAULT_RULES)).toEqual([]);
  });
});
