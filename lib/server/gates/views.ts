import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import { ConsoleError } from "@/lib/shared/api/errors";
import type { EntriesView, GateSettings, MisuseList } from "@/lib/shared/api/gates";
import { dayOf } from "@/lib/shared/format/time";
import { recordAudit } from "../store/audit-log";
import { eventDays, eventFormat } from "../store/event-settings";
import * as entries from "../store/gates-entries";
import * as misuse from "../store/gates-misuse";

/**
 * The gates' screens: a day's entries (by zone and gate, 5-minute buckets, who entered against who
 * could, denials), the capacity a manager sets, the rules' settings, the misuse cases.
 */

const BUCKET_MS = 5 * 60_000;
/** "Last 15 minutes": the three 5-minute buckets up to now (the one in progress included). */
const RECENT_BUCKETS = 3;

type User = { id: string; username: string; role: string };

export async function entriesView(db: Queryable, dayId: string | undefined, now: Date): Promise<EntriesView> {
  const [days, format, settings] = await Promise.all([
    eventDays(db),
    eventFormat(db),
    misuse.gateSettings(db),
  ]);
  const day = dayId ? (days.find((d) => d.id === dayId) ?? null) : dayOf(days, now);
  if (dayId && !day) throw new ConsoleError("not_found", `No event day ${dayId}.`);
  const base = {
    time_zone: format.timeZone,
    computed_at: now.toISOString(),
    day: day ? { id: day.id, name: day.name } : null,
    days: days.map((d) => ({ id: d.id, name: d.name })),
    thresholds: settings.thresholds,
  };
  if (!day)
    return {
      ...base,
      unique: { holders: 0, wristbands: 0, tickets: 0 },
      zones: [],
      gates: [],
      buckets: [],
      show_rates: [],
      denied: [],
    };
  const [zones, unique, buckets, rates, denied] = await Promise.all([
    entries.capacityOfDay(db, day.id),
    entries.uniqueEntered(db, day.id),
    entries.entriesOfDay(db, day.id),
    entries.showRates(db, day.id),
    entries.deniedOfDay(db, day.id),
  ]);
  const recentFrom = Math.floor(now.getTime() / BUCKET_MS) * BUCKET_MS - (RECENT_BUCKETS - 1) * BUCKET_MS;
  const sum = (xs: { entries: number }[]) => xs.reduce((n, x) => n + x.entries, 0);
  const recent = buckets.filter((b) => Date.parse(b.bucket) >= recentFrom);
  const gates = new Map<string, { device_id: string; zone_id: string }>();
  for (const b of buckets) if (b.device_id) gates.set(`${b.device_id}|${b.zone_id}`, b);
  return {
    ...base,
    unique,
    zones: zones.map((z) => ({
      zone_id: z.zone_id,
      name: z.name,
      entered: z.entered,
      capacity: z.capacity,
      percent: z.capacity === null ? null : Math.round((1000 * z.entered) / z.capacity) / 10,
      entries_today: sum(buckets.filter((b) => b.zone_id === z.zone_id)),
      entries_15_min: sum(recent.filter((b) => b.zone_id === z.zone_id)),
      capacity_by: z.updated_by,
      capacity_at: z.updated_at,
    })),
    gates: [...gates.values()]
      .map((g) => {
        const of = (xs: typeof buckets) =>
          xs.filter((b) => b.device_id === g.device_id && b.zone_id === g.zone_id);
        return { ...g, entries_today: sum(of(buckets)), entries_15_min: sum(of(recent)) };
      })
      .sort((a, b) => a.device_id.localeCompare(b.device_id) || a.zone_id.localeCompare(b.zone_id)),
    buckets,
    show_rates: rates.map((r) => ({
      ...r,
      no_shows: Math.max(0, r.valid - r.entered),
      show_rate: r.valid ? r.entered / r.valid : null,
    })),
    denied,
  };
}

export async function setZoneCapacity(
  db: Db,
  user: User,
  zoneId: string,
  capacity: number | null,
  now: Date,
): Promise<EntriesView> {
  await db.transaction(async (tx) => {
    if (!(await entries.zoneKnown(tx, zoneId)))
      throw new ConsoleError("not_found", `No zone ${zoneId} in the mirror.`);
    await entries.setCapacity(tx, zoneId, capacity, user.username, now);
    await recordAudit(tx, {
      user,
      action: "gates.capacity",
      target: zoneId,
      outcome: "ok",
      detail: { capacity },
    });
  });
  return entriesView(db, undefined, now);
}

export async function gateSettingsView(db: Queryable) {
  const s = await misuse.gateSettings(db);
  return {
    walk_min_s: s.rules.walkMinMs / 1000,
    double_swipe_s: s.rules.doubleSwipeMs / 1000,
    burst_count: s.rules.burstCount,
    burst_window_s: s.rules.burstWindowMs / 1000,
    thresholds: s.thresholds,
    pairs: s.pairs,
    updated_by: s.updated_by,
    updated_at: s.updated_at,
  };
}

export async function saveGateSettings(db: Db, user: User, settings: GateSettings, now: Date) {
  await db.transaction(async (tx) => {
    await misuse.saveGateSettings(tx, settings, user.username, now);
    await recordAudit(tx, { user, action: "gates.settings", outcome: "ok", detail: settings });
  });
  return gateSettingsView(db);
}

export async function gateScans(
  db: Queryable,
  q: { day_id?: string; device_id?: string; reason?: string; allowed?: "true" | "false" },
  now: Date,
) {
  const [days, format] = await Promise.all([eventDays(db), eventFormat(db)]);
  const day = q.day_id ?? dayOf(days, now)?.id ?? null;
  const scans = await entries.scansOf(
    db,
    {
      dayId: day,
      deviceId: q.device_id,
      reason: q.reason,
      allowed: q.allowed === undefined ? undefined : q.allowed === "true",
    },
    200,
  );
  return { time_zone: format.timeZone, scans };
}

/** Records shown per case in the list of cases (a burst or an offline spend can hold a hundred). */
export const LIST_EVIDENCE = 5;

/** The newest 100 cases with their first records, or one case (`caseId`) with all of them. */
export async function misuseList(db: Queryable, caseId?: string): Promise<MisuseList> {
  const [format, found, zones] = await Promise.all([
    eventFormat(db),
    entries.misuseCases(db, caseId ? 1 : 100, caseId),
    entries.zoneNames(db),
  ]);
  // The list shows each case's first records; a case's own view (its link) shows them all.
  const cases = found.map((c) => ({
    ...c,
    evidence_total: c.evidence.length,
    evidence: caseId ? c.evidence : c.evidence.slice(0, LIST_EVIDENCE),
  }));
  const records = await entries.evidenceRecords(
    db,
    cases.flatMap((c) => c.evidence),
  );
  const byKey = new Map(records.map((r) => [`${r.resource}:${r.id}`, r]));
  return {
    time_zone: format.timeZone,
    currency: format.currency,
    zones,
    cases: cases.map((c) => ({
      ...c,
      kind: c.kind as MisuseList["cases"][number]["kind"],
      severity: c.severity as "info" | "warning" | "critical",
      evidence: c.evidence.flatMap((e) => byKey.get(`${e.resource}:${e.id}`) ?? []),
    })),
  };
}
