import "server-only";
import type { Db, Queryable } from "@/lib/db/db";
import type { AlertKind } from "@/lib/shared/api/attention";
import { dayOf } from "@/lib/shared/format/time";
import { pushBus } from "../push";
import { insertAlert, lateAfterSeconds, resolveAlert, touchAlert } from "../store/attention";
import { eventDays } from "../store/event-settings";
import * as entries from "../store/gates-entries";
import * as store from "../store/gates-misuse";
import {
  deniedBursts,
  doubleCheckIns,
  doubleSwipes,
  type GateRuleSettings,
  holderOf,
  impossibleWalks,
  longestWalk,
  MAX_CLOCK_OFFSET_MS,
  type MisuseCase,
  type MisuseKind,
  offlineDoubleSpends,
  type ScanFact,
  smallestDelays,
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

async function casesOf(
  q: Queryable,
  ids: { scans: string[]; sales: string[] },
  rules: GateRuleSettings,
): Promise<MisuseCase[]> {
  const [scans, sales] = await Promise.all([store.scansByIds(q, ids.scans), store.salesByIds(q, ids.sales)]);
  const cases: MisuseCase[] = [];

  // Device clocks are per device and event day: `device|day` stands for the device below.
  const scoped = (s: ScanFact): ScanFact => ({
    ...s,
    device_id: s.device_id && `${s.device_id}|${s.day_id}`,
  });
  const unscoped = (v: unknown) => (typeof v === "string" ? v.split("|")[0]! : null);
  const allowed = scans.filter((s) => s.allowed && s.zone_id && holderOf(s));
  const neighbours = allowed.length
    ? await store.holderScansAround(
        q,
        allowed.map((s) => ({ holder: holderOf(s)!, at: s.occurred_at })),
        longestWalk(rules) + 2 * MAX_CLOCK_OFFSET_MS,
      )
    : [];
  const keys = new Set([...scans, ...neighbours].filter((s) => s.device_id).map((s) => scoped(s).device_id!));
  const known = await store.deviceDelays(
    q,
    [...keys].map((k) => ({ device: k.split("|")[0]!, day: k.split("|")[1]! })),
  );
  const offsets = smallestDelays(scans.map(scoped), known);
  await store.saveDeviceDelays(q, offsets);
  cases.push(
    ...impossibleWalks(allowed.map(scoped), neighbours.map(scoped), offsets, rules).map((c) => ({
      ...c,
      figures: {
        ...c.figures,
        from_device: unscoped(c.figures.from_device),
        to_device: unscoped(c.figures.to_device),
      },
    })),
  );

  const tickets = [...new Set(scans.filter((s) => s.kind === "check_in" && s.allowed && s.ticket_code))];
  if (tickets.length)
    cases.push(
      ...doubleCheckIns(
        await store.checkInsOfTickets(
          q,
          tickets.map((s) => s.ticket_code!),
        ),
      ),
    );

  const denied = scans.filter((s) => !s.allowed && s.device_id);
  if (denied.length) {
    // One look per device, reason and minute: a burst's dozen records share their neighbours.
    const looks = new Map<string, { device: string; reason: string | null; at: string }>();
    for (const s of denied) {
      const minute = new Date(Math.floor(Date.parse(s.occurred_at) / 60_000) * 60_000).toISOString();
      looks.set(`${s.device_id}|${s.reason}|${minute}`, {
        device: s.device_id!,
        reason: s.reason,
        at: minute,
      });
    }
    const around = await store.deniedAround(q, [...looks.values()], rules.burstWindowMs + 60_000);
    const groups = new Map<string, { device: string; reason: string; day: string; from: string }>();
    for (const s of denied) {
      const key = `${s.device_id}|${s.reason ?? ""}`;
      const from = new Date(Date.parse(s.occurred_at) - rules.burstWindowMs).toISOString();
      const g = groups.get(key);
      if (!g || from < g.from)
        groups.set(key, { device: s.device_id!, reason: s.reason ?? "", day: s.day_id, from });
    }
    const normal = await store.normalDenials(q, [...groups.values()], rules.burstWindowMs);
    cases.push(...deniedBursts(around, rules, normal));
  }

  const charges = sales.filter((s) => s.device_id);
  if (charges.length) {
    const around = await store.salesAround(
      q,
      charges.map((s) => ({ device: s.device_id!, wristband: s.wristband_id, at: s.occurred_at })),
      rules.doubleSwipeMs,
    );
    cases.push(...doubleSwipes(charges, around, rules));
  }

  const lateMs = (await lateAfterSeconds(q)) * 1000;
  const lateWristbands = new Set(
    sales
      .filter((s) => Date.parse(s.created_at) - Date.parse(s.occurred_at) > lateMs)
      .map((s) => s.wristband_id),
  );
  for (const w of lateWristbands) {
    const money = await store.wristbandMoney(q, w);
    cases.push(...offlineDoubleSpends(w, money.sales, money.topups, lateMs));
  }
  return cases;
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
