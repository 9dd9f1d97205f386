import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Checkin } from "@/lib/contract";
import type { Db } from "@/lib/db/db";
import { insertEventDays, saleRecord, scanRecord, topupRecord } from "@/lib/testing/mirror-records";
import { openTestDashboardStore } from "../../testing/dashboard-store";
import { evaluateAttention } from "../alerts/evaluate";
import { openAlerts } from "../store/attention";
import { upsertSales, upsertScans, upsertTopups } from "../store/mirror";
import { DEFAULT_ATTENTION } from "../terminals";
import { evaluateGates } from "./evaluate";
import {
  entriesView,
  gateSettingsView,
  LIST_EVIDENCE,
  misuseList,
  saveGateSettings,
  setZoneCapacity,
} from "./views";

/**
 * The gates on a real store (PGlite; DATABASE_URL runs it in a throwaway PostgreSQL schema): the
 * aggregates the triggers keep, the rule step on the queue they fill, capacity alerts, audit.
 */

const DAYS = [
  { id: "day_1", starts_at: "2026-07-10T10:00:00.000Z", ends_at: "2026-07-11T04:00:00.000Z" },
  { id: "day_2", starts_at: "2026-07-11T10:00:00.000Z", ends_at: "2026-07-12T04:00:00.000Z" },
];
const T0 = Date.parse("2026-07-11T21:00:00.000Z");
const at = (s: number) => new Date(T0 + s * 1000);
const MANAGER = { id: "u_m", username: "manager", role: "manager" as const };

function scan(p: {
  s: number;
  zone?: string | null;
  device?: string;
  wristband?: string | null;
  ticket?: string | null;
  allowed?: boolean;
  reason?: string | null;
  kind?: "check_in" | "access_check";
  arrived?: number;
}): Checkin {
  return {
    ...scanRecord({
      device: p.device ?? "gate-01",
      day: "day_2",
      occurred: at(p.s),
      created: at(p.arrived ?? p.s),
    }),
    kind: p.kind ?? "access_check",
    allowed: p.allowed ?? true,
    reason: p.reason ?? null,
    wristband_id: p.wristband === undefined ? "wb_1" : p.wristband,
    ticket_code: p.ticket ?? null,
    zone: p.zone === null ? null : { id: p.zone ?? "z_gen", name: p.zone ?? "z_gen" },
  } as Checkin;
}

let db: Db;
beforeAll(async () => {
  db = await openTestDashboardStore();
  await insertEventDays(db, DAYS);
  await db.query("insert into m_zones (id, name) values ('z_gen', 'General'), ('z_vip', 'VIP')");
});
afterAll(async () => {
  await db?.close();
});

const kinds = async () =>
  (await db.query<{ kind: string }>("select kind from misuse_cases order by id")).map((r) => r.kind);

describe("entries kept by the triggers", () => {
  it("count entries per 5 minutes, first entries per holder and zone, denials; equal to a rebuild", async () => {
    await upsertScans(db, [
      scan({ s: 0, wristband: "wb_a" }),
      scan({ s: 100, wristband: "wb_a" }), // re-entry: one person
      scan({ s: 200, wristband: "wb_b", device: "gate-02" }),
      scan({ s: 250, wristband: "wb_b", zone: "z_vip", device: "gate-03" }),
      scan({ s: 260, wristband: null, ticket: "T9", kind: "check_in", zone: null }),
      scan({
        s: 300,
        wristband: "wb_c",
        allowed: false,
        reason: "zone_not_allowed",
        zone: "z_vip",
        device: "gate-03",
      }),
    ]);
    const view = await entriesView(db, "day_2", at(400));
    const gen = view.zones.find((z) => z.zone_id === "z_gen")!;
    expect(gen).toMatchObject({ entered: 2, entries_today: 3 });
    expect(view.zones.find((z) => z.zone_id === "z_vip")).toMatchObject({ entered: 1, entries_today: 1 });
    expect(view.unique).toEqual({ holders: 3, wristbands: 2, tickets: 1 });
    expect(view.denied).toEqual([
      expect.objectContaining({ reason: "zone_not_allowed", device_id: "gate-03", count: 1 }),
    ]);
    expect(view.buckets.reduce((n, b) => n + b.entries, 0)).toBe(5);
    const before = await db.query("select * from g_zone_day order by 1, 2");
    await db.query("select gates_recompute()");
    expect(await db.query("select * from g_zone_day order by 1, 2")).toEqual(before);
    await db.query("delete from g_misuse_queue");
  });

  it("a manager's capacity is kept, audited, and raises an alert by threshold; a lower count resolves it", async () => {
    await setZoneCapacity(db, MANAGER, "z_gen", 2, at(500));
    const [audit] = await db.query<{ action: string; target: string }>(
      "select action, target from audit_log order by id desc limit 1",
    );
    expect(audit).toEqual({ action: "gates.capacity", target: "z_gen" });
    await evaluateGates(db, at(500));
    const alert = (await openAlerts(db)).find((a) => a.kind === "zone_capacity");
    expect(alert).toMatchObject({
      subject: "z_gen",
      severity: "critical",
      figures: { percent: 100, threshold: 100 },
    });
    // The attention rules do not resolve the gates' alerts.
    await evaluateAttention(db, DEFAULT_ATTENTION, at(510));
    expect((await openAlerts(db)).some((a) => a.kind === "zone_capacity")).toBe(true);
    await setZoneCapacity(db, MANAGER, "z_gen", 10, at(520));
    await evaluateGates(db, at(520));
    expect((await openAlerts(db)).some((a) => a.kind === "zone_capacity")).toBe(false);
  });
});

describe("a night past midnight and the settings", () => {
  it("a scan after midnight counts in its event day (day_id), not the calendar date", async () => {
    const before = (await entriesView(db, "day_2", at(20_000))).zones.find((z) => z.zone_id === "z_vip")!;
    // 00:30 UTC on the 12th: still the night of day_2 (it ends at 04:00).
    await upsertScans(db, [
      scan({ s: 12_600, wristband: "wb_late_night", zone: "z_vip", device: "gate-03" }),
    ]);
    const after = (await entriesView(db, "day_2", at(20_000))).zones.find((z) => z.zone_id === "z_vip")!;
    expect(after.entered - before.entered).toBe(1);
    await db.query("delete from g_misuse_queue");
  });

  it("a manager's settings are audited, and a pair's own minimum walk is what the rule uses", async () => {
    await saveGateSettings(
      db,
      MANAGER,
      {
        walk_min_s: 60,
        double_swipe_s: 10,
        burst_count: 10,
        burst_window_s: 300,
        thresholds: [70, 90, 100],
        pairs: [{ zone_a: "z_vip", zone_b: "z_gen", min_s: 300 }],
      },
      at(12_900),
    );
    expect(await gateSettingsView(db)).toMatchObject({
      thresholds: [70, 90, 100],
      pairs: [{ zone_a: "z_gen", zone_b: "z_vip", min_s: 300 }],
      updated_by: "manager",
    });
    const [audit] = await db.query<{ action: string }>(
      "select action from audit_log order by id desc limit 1",
    );
    expect(audit!.action).toBe("gates.settings");
    // 200 s between the two zones: no walk at the default 60 s, one at this pair's 300 s.
    await upsertScans(db, [
      scan({ s: 13_000, wristband: "wb_pair" }),
      scan({ s: 13_200, wristband: "wb_pair", zone: "z_vip", device: "gate-03" }),
    ]);
    expect(await evaluateGates(db, at(13_205))).toMatchObject({ cases: 1 });
    await saveGateSettings(
      db,
      MANAGER,
      {
        walk_min_s: 60,
        double_swipe_s: 10,
        burst_count: 10,
        burst_window_s: 300,
        thresholds: [80, 95, 100],
        pairs: [],
      },
      at(13_300),
    );
    await db.exec("delete from misuse_cases; delete from alerts where kind = 'impossible_walk';");
  });
});

describe("misuse on the records each poll brings", () => {
  it("an impossible walk whose second record arrives late is found on that poll, once, with its alert", async () => {
    await upsertScans(db, [scan({ s: 1000, wristband: "wb_w", device: "gate-01" })]);
    expect(await evaluateGates(db, at(1005))).toMatchObject({ records: 1, cases: 0 });
    await upsertScans(db, [
      scan({ s: 1030, arrived: 1400, wristband: "wb_w", zone: "z_vip", device: "gate-03" }),
    ]);
    expect(await evaluateGates(db, at(1405))).toMatchObject({ records: 1, cases: 1, opened: 1 });
    expect(await evaluateGates(db, at(1410))).toMatchObject({ records: 0 });
    const [c] = (await misuseList(db)).cases;
    expect(c).toMatchObject({ kind: "impossible_walk", alert_state: "open" });
    expect(c!.evidence.map((e) => e.zone_id)).toEqual(["z_gen", "z_vip"]);
    const alert = (await openAlerts(db)).find((a) => a.kind === "impossible_walk")!;
    expect(alert.link).toBe(`/gates/misuse?case=${c!.id}`);
  });

  it("double swipes, double check-ins, denied bursts and offline double spends, each once", async () => {
    await upsertSales(db, [
      {
        ...saleRecord({ device: "bar-09", day: "day_2", occurred: at(2000), total: 450 }),
        wristband_id: "wb_s",
      },
      {
        ...saleRecord({ device: "bar-09", day: "day_2", occurred: at(2006), total: 450 }),
        wristband_id: "wb_s",
      },
    ]);
    await upsertScans(db, [
      scan({ s: 2000, kind: "check_in", zone: null, ticket: "TDBL", wristband: "wb_d1" }),
      scan({ s: 2300, kind: "check_in", zone: null, ticket: "TDBL", wristband: "wb_d2", device: "gate-02" }),
      ...Array.from({ length: 10 }, (_, i) =>
        scan({
          s: 2000 + i * 10,
          allowed: false,
          reason: "unknown_code",
          wristband: null,
          device: "gate-05",
        }),
      ),
    ]);
    await upsertTopups(db, [
      {
        ...topupRecord({ device: "topup-01", day: "day_2", occurred: at(1900) }),
        wristband_id: "wb_o",
        new_balance: 1000,
      },
    ]);
    await upsertSales(db, [
      {
        ...saleRecord({ device: "bar-07", day: "day_2", occurred: at(1950), created: at(2700), total: 800 }),
        wristband_id: "wb_o",
      },
      {
        ...saleRecord({ device: "bar-08", day: "day_2", occurred: at(1960), created: at(2700), total: 800 }),
        wristband_id: "wb_o",
      },
    ]);
    await evaluateGates(db, at(2705));
    expect((await kinds()).sort()).toEqual(
      ["denied_burst", "double_checkin", "double_swipe", "impossible_walk", "offline_double_spend"].sort(),
    );
    // More of the same burst joins its case; a re-sent record makes nothing new.
    await upsertScans(db, [
      scan({ s: 2105, allowed: false, reason: "unknown_code", wristband: null, device: "gate-05" }),
    ]);
    await evaluateGates(db, at(2710));
    const burst = (await misuseList(db)).cases.find((c) => c.kind === "denied_burst")!;
    // The list shows its first records and the count; the case's own view, every record.
    expect(burst.evidence_total).toBe(11);
    expect(burst.evidence).toHaveLength(LIST_EVIDENCE);
    const [whole] = (await misuseList(db, burst.id)).cases;
    expect(whole!.evidence.map((e) => e.id).slice(0, LIST_EVIDENCE)).toEqual(burst.evidence.map((e) => e.id));
    expect(whole!.evidence).toHaveLength(11);
    expect(await kinds()).toHaveLength(5);
  });

  it("misuse alerts resolve after an hour without new evidence", async () => {
    await evaluateGates(db, at(2710 + 3700));
    expect((await openAlerts(db)).filter((a) => a.kind !== "zone_capacity")).toEqual([]);
  });

  it("a gate whose clock runs behind is corrected by the smallest delay it ever showed, across batches", async () => {
    // gate-k's clock is 90 s behind the service: a record it sends at once arrives 90 s "after" it happened.
    await upsertScans(db, [
      scan({ s: 10_000 - 90, arrived: 10_000, wristband: "wb_x1", device: "gate-k", zone: "z_vip" }),
    ]);
    await evaluateGates(db, at(10_001));
    // Later wb_k walks from the general zone to gate-k in 20 s; gate-k sends that scan 40 s late. Its delay
    // now is 130 s: taken as the clock, the walk would read 60 s (allowed); the 90 s learned before says 20 s.
    await upsertScans(db, [
      scan({ s: 10_200, wristband: "wb_k", device: "gate-01" }),
      scan({ s: 10_220 - 90, arrived: 10_260, wristband: "wb_k", device: "gate-k", zone: "z_vip" }),
    ]);
    await evaluateGates(db, at(10_261));
    const walk = (await misuseList(db)).cases.find(
      (c) => c.kind === "impossible_walk" && c.subject === "wb_k",
    );
    expect(walk?.figures).toMatchObject({
      from_zone: "z_gen",
      to_zone: "z_vip",
      seconds: 20,
      from_device: "gate-01",
      to_device: "gate-k",
    });
  });
});
