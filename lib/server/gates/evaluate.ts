import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import type { AlertKind } from "@/lib/shared/api/attention";
import { dayOf } from "@/lib/shared/format/time";
import { pushBus } from "../push";
import { insertAlert, lateAfterSeconds, resolveAlert, touchAlert } from "../store/attention";
import { eventDays } from "../store/event-settings";
import * as reads from "../store/gates-batch-reads";
import * as entries from "../store/gates-entries";
import * as store from "../store/gates-misuse";
import {
  deniedBursts,
  doubleCheckIns,
  doubleSwipes,
  type GateRuleSettings,
  impossibleWalks,
  longestWalk,
  MAX_CLOCK_OFFSET_MS,
  type MisuseCase,
  type MisuseKind,
  offlineDoubleSpends,
  type ScanFact,
} from "./misuse-rules";

/**
 * The gates' step after each sync cycle (and after tail polls, once per cycle interval): the misuse
 * rules on the records the polls brought (the queue the mirror's triggers fill, in batches), then
 * the capacity alerts of today's zones. Cost grows with what arrived, not with the day.
 */

/** Records taken off the queue per batch; a step takes batches until the queue is empty or MAX_BATCHES. */
export const QUEUE_BATCH = 2000;
const MAX_BATCHES = 25;
/** A case whose newest record arrived longer ago than this is listed, but raises no alert (the first mirror). */
export const ALERT_FRESH_MS = 60 * 60_000;
/** A misuse alert resolves when its case has had no new evidence for this long. */
export const MISUSE_ALERT_HOLD_MS = 60 * 60_000;

export const misuseAlertKinds = [
  "impossible_walk",
  "double_checkin",
  "double_swipe",
  "offline_double_spend",
  "denied_burst",
] as const satisfies readonly (MisuseKind & AlertKind)[];

export interface GatesOutcome {
  records: number;
  cases: number;
  opened: number;
}

/** Device clocks are per device and event day: `device|day` stands for the device in the walk rule. */
const scoped = (s: ScanFact): ScanFact => ({ ...s, device_id: s.device_id && `${s.device_id}|${s.day_id}` });
const unscoped = (v: unknown) => (typeof v === "string" ? v.split("|")[0]! : null);

async function walkCases(q: Queryable, ids: string[], rules: GateRuleSettings): Promise<MisuseCase[]> {
  // The batch's smallest delays are merged into the stored ones first: the offsets read back are both.
  await store.saveDeviceDelays(q, await reads.batchScanDelays(q, ids));
  const walk = await reads.walkCandidates(q, ids, longestWalk(rules) + 2 * MAX_CLOCK_OFFSET_MS);
  if (!walk.fresh.length) return [];
  const keys = new Set(
    [...walk.fresh, ...walk.neighbours].filter((s) => s.device_id).map((s) => scoped(s).device_id!),
  );
  const offsets = await store.deviceDelays(
    q,
    [...keys].map((k) => ({ device: k.split("|")[0]!, day: k.split("|")[1]! })),
  );
  return impossibleWalks(walk.fresh.map(scoped), walk.neighbours.map(scoped), offsets, rules).map((c) => ({
    ...c,
    figures: {
      ...c.figures,
      from_device: unscoped(c.figures.from_device),
      to_device: unscoped(c.figures.to_device),
    },
  }));
}

async function burstCases(q: Queryable, ids: string[], rules: GateRuleSettings): Promise<MisuseCase[]> {
  const denied = await reads.deniedOfBatch(q, ids);
  if (!denied.length) return [];
  // One look per device, reason and minute: a burst's dozen records share their neighbours.
  const looks = new Map<string, { device: string; reason: string | null; at: string }>();
  for (const s of denied) {
    const minute = new Date(Math.floor(Date.parse(s.occurred_at) / 60_000) * 60_000).toISOString();
    looks.set(`${s.device_id}|${s.reason}|${minute}`, { device: s.device_id!, reason: s.reason, at: minute });
  }
  const around = await reads.deniedAround(q, [...looks.values()], rules.burstWindowMs + 60_000);
  const groups = new Map<string, { device: string; reason: string; day: string; from: string }>();
  for (const s of denied) {
    const key = `${s.device_id}|${s.reason ?? ""}`;
    const from = new Date(Date.parse(s.occurred_at) - rules.burstWindowMs).toISOString();
    const g = groups.get(key);
    if (!g || from < g.from)
      groups.set(key, { device: s.device_id!, reason: s.reason ?? "", day: s.day_id, from });
  }
  const normal = await reads.normalDenials(q, [...groups.values()], rules.burstWindowMs);
  return deniedBursts(around, rules, normal);
}

async function offlineCases(q: Queryable, ids: string[]): Promise<MisuseCase[]> {
  const lateMs = (await lateAfterSeconds(q)) * 1000;
  const cases: MisuseCase[] = [];
  for (const w of await reads.lateWristbands(q, ids, lateMs)) {
    const money = await store.wristbandMoney(q, w);
    cases.push(...offlineDoubleSpends(w, money.sales, money.topups, lateMs));
  }
  return cases;
}

/** The cases a batch of the queue takes part in (its records read only where they can be evidence). */
async function casesOf(
  q: Queryable,
  ids: { scans: string[]; sales: string[] },
  rules: GateRuleSettings,
): Promise<MisuseCase[]> {
  const swipes = await reads.swipeCandidates(q, ids.sales, rules.doubleSwipeMs);
  return [
    ...(await walkCases(q, ids.scans, rules)),
    ...doubleCheckIns(await reads.repeatedCheckIns(q, ids.scans)),
    ...(await burstCases(q, ids.scans, rules)),
    ...doubleSwipes(swipes.fresh, swipes.neighbours, rules),
    ...(await offlineCases(q, ids.sales)),
  ];
}

const caseLink = (id: string) => `/gates/misuse?case=${encodeURIComponent(id)}`;

/** Stores the cases; a new case (or one with new evidence) whose records arrived lately has its alert. */
async function storeCases(
  q: Queryable,
  cases: MisuseCase[],
  at: Date,
  rules: GateRuleSettings,
): Promise<number> {
  let opened = 0;
  for (const found of cases) {
    const c =
      found.kind === "denied_burst"
        ? { ...found, key: (await store.overlappingBurst(q, found, rules.burstWindowMs)) ?? found.key }
        : found;
    const stored = await store.upsertCase(q, c, at);
    const fresh = at.getTime() - Date.parse(c.arrivedAt) <= ALERT_FRESH_MS;
    if (!fresh) continue;
    const negative =
      c.kind === "offline_double_spend" ? await store.openAlertId(q, "negative_balance", "wristbands") : null;
    const condition = {
      kind: c.kind,
      subject: c.key,
      severity: c.severity,
      figures: {
        ...c.figures,
        case_id: Number(stored.id),
        ...(negative ? { negative_alert_id: Number(negative) } : {}),
      },
      link: caseLink(stored.id),
    };
    // A new case opens its alert; one with new evidence touches its open alert (or opens a new one).
    const open = stored.inserted ? null : await store.openAlertId(q, c.kind, c.key);
    if (open) await touchAlert(q, open, condition, at);
    else {
      await store.insertCaseAlert(q, stored.id, condition, at);
      opened++;
    }
  }
  return opened;
}

/** Today's zones at or past a threshold of their capacity: one alert per zone, its severity by threshold. */
async function capacityAlerts(q: Queryable, at: Date): Promise<number> {
  const [days, settings, open] = await Promise.all([
    eventDays(q),
    store.gateSettings(q),
    q.query<{ id: string; subject: string }>(
      "select id::text, subject from alerts where kind = 'zone_capacity' and state = 'open'",
    ),
  ]);
  const day = dayOf(days, at);
  const zones = day ? await entries.capacityOfDay(q, day.id) : [];
  const thresholds = [...settings.thresholds].sort((a, b) => a - b);
  const holding = new Map<string, Parameters<typeof insertAlert>[1]>();
  for (const z of zones) {
    if (z.capacity === null) continue;
    const percent = (100 * z.entered) / z.capacity;
    const crossed = thresholds.filter((t) => percent >= t);
    if (!crossed.length) continue;
    const top = crossed[crossed.length - 1]!;
    const rank = thresholds.indexOf(top);
    holding.set(z.zone_id, {
      kind: "zone_capacity",
      subject: z.zone_id,
      severity: rank === thresholds.length - 1 ? "critical" : rank === 0 ? "info" : "warning",
      figures: {
        zone_id: z.zone_id,
        zone: z.name,
        day_id: day!.id,
        entered: z.entered,
        capacity: z.capacity,
        percent: Math.round(percent),
        threshold: top,
      },
      link: "/gates",
    });
  }
  let opened = 0;
  for (const a of open) {
    const c = holding.get(a.subject);
    if (c) {
      await touchAlert(q, a.id, c, at);
      holding.delete(a.subject);
    } else await resolveAlert(q, a.id, at);
  }
  for (const c of holding.values()) {
    await insertAlert(q, c, at);
    opened++;
  }
  return opened;
}

/** One batch of the queue in its own transaction: a failure leaves the records queued. */
async function batch(db: Db, at: Date): Promise<{ records: number; cases: number; opened: number }> {
  return db.transaction(async (tx) => {
    const ids = await store.takeQueue(tx, QUEUE_BATCH);
    const records = ids.scans.length + ids.sales.length;
    if (!records) return { records, cases: 0, opened: 0 };
    const rules = (await store.gateSettings(tx)).rules;
    const cases = await casesOf(tx, ids, rules);
    return { records, cases: cases.length, opened: await storeCases(tx, cases, at, rules) };
  });
}

/** The gates' after-cycle work as of `at` (the worker's clock). */
export async function evaluateGates(db: Db, at: Date): Promise<GatesOutcome> {
  const total: GatesOutcome = { records: 0, cases: 0, opened: 0 };
  for (let i = 0; i < MAX_BATCHES; i++) {
    const b = await batch(db, at);
    total.records += b.records;
    total.cases += b.cases;
    total.opened += b.opened;
    if (b.records < QUEUE_BATCH) break;
  }
  if (total.records >= QUEUE_BATCH) await store.vacuumQueue(db);
  const resolved = await db.transaction(async (tx) => {
    total.opened += await capacityAlerts(tx, at);
    const stale = await store.staleMisuseAlerts(
      tx,
      [...misuseAlertKinds],
      new Date(at.getTime() - MISUSE_ALERT_HOLD_MS),
    );
    for (const id of stale) await resolveAlert(tx, id, at);
    return stale.length;
  });
  // The bell, the alerts and the gates' screens are told at once (the cycle's own push came before).
  if (total.opened + resolved > 0) pushBus(db).emit("alerts");
  return total;
}
